/**
 * Schema v10: which memories changed, not only that one did. Every insert, update and delete of
 * a memory (and a move of its anchor) appends the memory's rowid to `memory_changes`; the
 * newest `seq` is the memories' generation (it replaces v8's counter, one write per change
 * either way). A long-running process (the memory server) catches up by re-reading just the
 * rows logged since it last looked, so a hook's write no longer throws away everything recall
 * keeps in memory. The log keeps at least the last 65,536 changes; a reader that fell further
 * behind reads everything again.
 */
export const sql = `
CREATE TABLE memory_changes (
  seq INTEGER PRIMARY KEY,
  memory_rowid INTEGER NOT NULL
);
-- The generation goes on from v8's counter, so counts taken against it (term_stats_state) stay comparable.
INSERT INTO memory_changes (seq, memory_rowid) SELECT n, 0 FROM memory_generation WHERE n > 0;
DROP TRIGGER memories_generation_insert;
DROP TRIGGER memories_generation_update;
DROP TRIGGER memories_generation_delete;
DROP TRIGGER anchors_generation_update;
CREATE TRIGGER memories_changed_insert AFTER INSERT ON memories BEGIN INSERT INTO memory_changes (memory_rowid) VALUES (NEW.rowid); END;
CREATE TRIGGER memories_changed_update AFTER UPDATE ON memories BEGIN INSERT INTO memory_changes (memory_rowid) VALUES (NEW.rowid); END;
CREATE TRIGGER memories_changed_delete AFTER DELETE ON memories BEGIN INSERT INTO memory_changes (memory_rowid) VALUES (OLD.rowid); END;
CREATE TRIGGER anchors_changed_update AFTER UPDATE ON anchors BEGIN INSERT INTO memory_changes (memory_rowid) VALUES (NEW.memory_rowid); END;
-- Pruned every 1,024 changes, in whichever process writes: nothing to schedule, bounded size.
CREATE TRIGGER memory_changes_prune AFTER INSERT ON memory_changes WHEN NEW.seq % 1024 = 0
  BEGIN DELETE FROM memory_changes WHERE seq <= NEW.seq - 65536; END;
`;
