/**
 * Schema v8: a counter that any change to a memory (or to how it was used) bumps, from any
 * process. The memory server caches what hover and CodeLens show until it moves; the SQLite
 * connection's own counters cannot tell these writes from the editor-state writes the server
 * makes on every cursor move.
 */
export const sql = `
CREATE TABLE memory_generation (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  n INTEGER NOT NULL
);
INSERT INTO memory_generation (id, n) VALUES (1, 0);
CREATE TRIGGER memories_generation_insert AFTER INSERT ON memories BEGIN UPDATE memory_generation SET n = n + 1; END;
CREATE TRIGGER memories_generation_update AFTER UPDATE ON memories BEGIN UPDATE memory_generation SET n = n + 1; END;
CREATE TRIGGER memories_generation_delete AFTER DELETE ON memories BEGIN UPDATE memory_generation SET n = n + 1; END;
CREATE TRIGGER anchors_generation_update AFTER UPDATE ON anchors BEGIN UPDATE memory_generation SET n = n + 1; END;
CREATE TRIGGER usage_generation_insert AFTER INSERT ON memory_usage BEGIN UPDATE memory_generation SET n = n + 1; END;
CREATE TRIGGER usage_generation_update AFTER UPDATE ON memory_usage BEGIN UPDATE memory_generation SET n = n + 1; END;
`;
