/**
 * Schema v11: secondary indexes that `engram import` dropped to load an empty store faster and
 * builds again after its rows (store/deferredIndexes.ts). Each dropped index is recorded here in
 * the same transaction that drops it, so an import that dies half-way leaves a note of what to
 * build, not a store that is slow for good.
 */
export const sql = `
CREATE TABLE deferred_indexes (
  name TEXT PRIMARY KEY,
  sql TEXT NOT NULL
) WITHOUT ROWID;
`;
