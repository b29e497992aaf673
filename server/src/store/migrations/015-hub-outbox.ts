/**
 * Schema v15: the team hub's side of the store (docs/team.md, "Team hub"). `hub_outbox` is the
 * durable queue of local changes: a trigger adds a memory's id whenever any process (memory
 * server, CLI, hook, MCP) writes it, in the same transaction as the write, once this store follows
 * a hub (`hub_sync.following` = 1). A pull sets it to 2 while it writes, so what arrives from the
 * hub is not queued back. `hub_links` ties a local memory to its hub key, the hub version it last
 * agreed with and the hash of its record then; `hub_sync` keeps the pull cursor (the hub's
 * sequence, never a clock) and the last error.
 */
export const sql = `
CREATE TABLE hub_outbox (
  seq INTEGER PRIMARY KEY,
  memory_id TEXT NOT NULL
);
CREATE TABLE hub_links (
  memory_id TEXT PRIMARY KEY,
  hub_key TEXT NOT NULL UNIQUE,
  hub_seq INTEGER NOT NULL,
  record_hash TEXT NOT NULL
);
CREATE TABLE hub_sync (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  following INTEGER NOT NULL DEFAULT 0,
  hub_id TEXT,
  project TEXT,
  cursor INTEGER NOT NULL DEFAULT 0,
  last_sync_at INTEGER,
  last_error TEXT,
  last_error_at INTEGER
);
INSERT INTO hub_sync (id) VALUES (1);
CREATE TRIGGER hub_outbox_insert AFTER INSERT ON memories WHEN (SELECT following FROM hub_sync WHERE id = 1) = 1
  BEGIN INSERT INTO hub_outbox (memory_id) VALUES (NEW.id); END;
CREATE TRIGGER hub_outbox_update AFTER UPDATE ON memories WHEN (SELECT following FROM hub_sync WHERE id = 1) = 1
  BEGIN INSERT INTO hub_outbox (memory_id) VALUES (NEW.id); END;
CREATE TRIGGER hub_outbox_delete AFTER DELETE ON memories WHEN (SELECT following FROM hub_sync WHERE id = 1) = 1
  BEGIN INSERT INTO hub_outbox (memory_id) VALUES (OLD.id); END;
`;
