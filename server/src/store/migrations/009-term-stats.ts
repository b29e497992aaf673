/**
 * Schema v9: how many memories each full-text index term occurs in, as counted now and then
 * (store/termStats.ts). FTS5 can only tell by walking a term's whole doclist, which costs as much
 * as the search it would steer; recall reads these counts to search a query's selective terms
 * and score its common ones without asking FTS5 to rank tens of thousands of rows.
 */
export const sql = `
CREATE TABLE term_stats (
  term TEXT PRIMARY KEY,
  docs INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE term_stats_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  rows INTEGER NOT NULL,
  generation INTEGER NOT NULL,
  counted_at INTEGER NOT NULL
);
`;
