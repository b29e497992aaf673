/**
 * Schema v7: the moments an agent session's context was compacted (recorded by the PreCompact
 * hook), so the timeline can show "context compacted here" and what was given again after it.
 */
export const sql = `
CREATE TABLE compactions (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  trigger TEXT NOT NULL CHECK (trigger IN ('manual', 'auto')),
  at INTEGER NOT NULL
);
CREATE INDEX compactions_session ON compactions (session_id, at);
`;
