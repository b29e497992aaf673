/**
 * Schema v3: where a memory came from outside Engram (e.g. `claude:<record uuid>`), unique, so
 * ingesting the same transcript twice, or after a crash mid-way, adds nothing twice.
 */
export const sql = `
ALTER TABLE memories ADD COLUMN source_ref TEXT;
CREATE UNIQUE INDEX memories_source_ref ON memories (source_ref) WHERE source_ref IS NOT NULL;
`;
