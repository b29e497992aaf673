/**
 * Schema v2: the last known content of each captured file, so a change can be diffed against it
 * even after a restart. Contents are stored once per distinct text (content-addressed) and the
 * cache is bounded by evicting the least recently seen files.
 */
export const sql = `
CREATE TABLE file_blobs (
  hash TEXT PRIMARY KEY,
  content TEXT NOT NULL,
  bytes INTEGER NOT NULL
);

CREATE TABLE file_snapshots (
  path TEXT PRIMARY KEY,
  hash TEXT NOT NULL REFERENCES file_blobs (hash),
  size INTEGER NOT NULL,
  mtime_ms INTEGER NOT NULL,
  seen_at INTEGER NOT NULL
);
CREATE INDEX file_snapshots_hash ON file_snapshots (hash);
CREATE INDEX file_snapshots_seen ON file_snapshots (seen_at);
`;
