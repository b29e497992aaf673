/**
 * Schema v17: how many memories there are of each kind, status and pin, kept by triggers. The
 * status bar, `engram stats` and doctor read it after every change; counting the memories
 * themselves took 70–135 ms at 1,000,000, and the memory server recounted after every write.
 * A row that reaches 0 stays (there are at most 7 kinds × 3 statuses × 3 pins).
 */
export const sql = `
CREATE TABLE memory_counts (
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  pin TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (kind, status, pin)
) WITHOUT ROWID;
INSERT INTO memory_counts (kind, status, pin, n) SELECT kind, status, pin, count(*) FROM memories GROUP BY kind, status, pin;
CREATE TRIGGER memories_counts_insert AFTER INSERT ON memories BEGIN
  INSERT INTO memory_counts (kind, status, pin, n) VALUES (new.kind, new.status, new.pin, 1)
    ON CONFLICT (kind, status, pin) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER memories_counts_delete AFTER DELETE ON memories BEGIN
  UPDATE memory_counts SET n = n - 1 WHERE kind = old.kind AND status = old.status AND pin = old.pin;
END;
CREATE TRIGGER memories_counts_update AFTER UPDATE OF kind, status, pin ON memories
  WHEN old.kind IS NOT new.kind OR old.status IS NOT new.status OR old.pin IS NOT new.pin BEGIN
  UPDATE memory_counts SET n = n - 1 WHERE kind = old.kind AND status = old.status AND pin = old.pin;
  INSERT INTO memory_counts (kind, status, pin, n) VALUES (new.kind, new.status, new.pin, 1)
    ON CONFLICT (kind, status, pin) DO UPDATE SET n = n + 1;
END;
`;
