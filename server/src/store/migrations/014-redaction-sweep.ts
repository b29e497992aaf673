/**
 * Schema v14: which redaction rules last checked every stored text (store/redactionSweep.ts).
 * Texts are redacted on their way in, by the rules of their day; when the rules change, what was
 * stored before is checked again by a sweep, whose progress this row keeps across processes and
 * restarts. `checked_by` NULL: a store from before v14, whose texts no recorded rules checked.
 */
export const sql = `
CREATE TABLE redaction_sweep (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  checked_by TEXT,
  sweeping_for TEXT,
  phase TEXT,
  after_rowid INTEGER NOT NULL DEFAULT 0,
  rewritten INTEGER NOT NULL DEFAULT 0,
  backup TEXT,
  started_at INTEGER
);
INSERT INTO redaction_sweep (id) VALUES (1);
`;
