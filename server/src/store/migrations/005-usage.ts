/**
 * Schema v5: how often each memory was shown (given to an agent, shown in a hover) and acted on
 * (opened, pinned, copied, fetched by an agent), for the usage part of recall scoring.
 */
export const sql = `
CREATE TABLE memory_usage (
  memory_rowid INTEGER PRIMARY KEY REFERENCES memories (rowid) ON DELETE CASCADE,
  shown INTEGER NOT NULL DEFAULT 0,
  acted INTEGER NOT NULL DEFAULT 0,
  last_shown_at INTEGER,
  last_acted_at INTEGER
);
`;
