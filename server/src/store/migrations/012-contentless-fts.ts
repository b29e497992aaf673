/**
 * Schema v12: the full-text table keeps no copy of the text. memory_fts stored every memory's
 * title, body, why and tags a second time (`memory_fts_content`: 37 % of a 100,000-memory
 * database, written again by every import); contentless with `contentless_delete`, it keeps the
 * index alone and still deletes by rowid. The tags, which only the full-text row held, move to
 * `memories.fts_tags`: what is read back (the memory server's in-memory index, word checks in
 * short commands) comes from `memories`, exactly what was indexed. Rebuilding the index reads
 * every memory once (seconds at 100,000; backed up first, as every migration is).
 */
export const sql = `
ALTER TABLE memories ADD COLUMN fts_tags TEXT NOT NULL DEFAULT '';
UPDATE memories SET fts_tags = coalesce((SELECT tags FROM memory_fts f WHERE f.rowid = memories.rowid), '');
CREATE VIRTUAL TABLE memory_fts_v12 USING fts5 (title, body, why, tags, tokenize = 'porter unicode61', content = '', contentless_delete = 1);
INSERT INTO memory_fts_v12 (rowid, title, body, why, tags) SELECT rowid, title, body, why, tags FROM memory_fts;
DROP TABLE memory_fts;
ALTER TABLE memory_fts_v12 RENAME TO memory_fts;
`;
