/** Schema v1: memories with their tags and anchors, agent sessions, ingest offsets, injections, editor state. */
export const sql = `
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  agent TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  ended_at INTEGER,
  branch TEXT,
  title TEXT,
  transcript_path TEXT
);

CREATE TABLE memories (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  why TEXT,
  source TEXT NOT NULL,
  session_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  importance REAL NOT NULL DEFAULT 0.5 CHECK (importance BETWEEN 0 AND 1),
  pin TEXT NOT NULL DEFAULT 'none' CHECK (pin IN ('none', 'soft', 'hard')),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived', 'forgotten')),
  meta TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX memories_kind_status ON memories (kind, status);
CREATE INDEX memories_updated ON memories (updated_at);
CREATE INDEX memories_session ON memories (session_id);

CREATE TABLE memory_files (
  memory_rowid INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
  path TEXT NOT NULL,
  PRIMARY KEY (memory_rowid, path)
) WITHOUT ROWID;
CREATE INDEX memory_files_path ON memory_files (path);

CREATE TABLE memory_symbols (
  memory_rowid INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
  symbol TEXT NOT NULL,
  PRIMARY KEY (memory_rowid, symbol)
) WITHOUT ROWID;
CREATE INDEX memory_symbols_symbol ON memory_symbols (symbol);

CREATE TABLE anchors (
  memory_rowid INTEGER PRIMARY KEY REFERENCES memories (rowid) ON DELETE CASCADE,
  path TEXT NOT NULL,
  start_line INTEGER NOT NULL,
  start_character INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  end_character INTEGER NOT NULL,
  content_hash TEXT NOT NULL,
  context_before TEXT NOT NULL,
  context_after TEXT NOT NULL,
  stale INTEGER NOT NULL DEFAULT 0 CHECK (stale IN (0, 1))
);
CREATE INDEX anchors_path ON anchors (path);

CREATE TABLE memory_links (
  from_rowid INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
  to_rowid INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
  relation TEXT NOT NULL,
  PRIMARY KEY (from_rowid, to_rowid, relation)
) WITHOUT ROWID;

CREATE TABLE ingest_offsets (
  path TEXT PRIMARY KEY,
  byte_offset INTEGER NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms INTEGER NOT NULL,
  head_hash TEXT NOT NULL,
  malformed_lines INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
);

CREATE TABLE injections (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  event TEXT NOT NULL,
  memory_id TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX injections_session ON injections (session_id, memory_id);

CREATE TABLE editor_state (
  window_id TEXT PRIMARY KEY,
  active_file TEXT,
  line INTEGER,
  character INTEGER,
  symbol TEXT,
  selection TEXT,
  updated_at INTEGER NOT NULL
);

CREATE VIRTUAL TABLE memory_fts USING fts5 (title, body, why, tags, tokenize = 'porter unicode61');
`;
