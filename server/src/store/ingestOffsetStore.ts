import type { Statement } from 'better-sqlite3';
import { Redactor } from '../secrets/redact';
import { lazyStatements } from './lazyStatements';
import type { SqliteDatabase } from './database';

/** How far Engram has read one transcript file, and how to tell that the file was replaced since. */
export interface IngestOffset {
  readonly path: string;
  /** End of the last complete line read: the next read starts here. */
  readonly byteOffset: number;
  /** File size and (whole-millisecond) mtime at the last read: both unchanged means nothing new. */
  readonly size: number;
  readonly mtimeMs: number;
  /** sha256 (hex) of the file's first min(4 KiB, byteOffset) bytes: a different value means a different file. */
  readonly headHash: string;
  /** Lines that were not JSON or did not fit the schema, counted since the last full scan. */
  readonly malformedLines: number;
  /** The reader's state between reads (JSON, owned by the transcripts module); '{}' when fresh. */
  readonly readerState: string;
  readonly updatedAt: number;
}

interface IngestOffsetRow {
  path: string;
  byte_offset: number;
  size: number;
  mtime_ms: number;
  head_hash: string;
  malformed_lines: number;
  reader_state: string;
  updated_at: number;
}

function rowToOffset(row: IngestOffsetRow): IngestOffset {
  return {
    path: row.path,
    byteOffset: row.byte_offset,
    size: row.size,
    mtimeMs: row.mtime_ms,
    headHash: row.head_hash,
    malformedLines: row.malformed_lines,
    readerState: row.reader_state,
    updatedAt: row.updated_at,
  };
}

/**
 * The only place that reads and writes per-file transcript ingest state with SQL. The reader's
 * state holds the last prompt, pending commands and what the assistant said: it is redacted
 * here, on its way in, so no caller can store it raw.
 */
export class IngestOffsetStore {
  private readonly statements: { get: Statement; put: Statement; delete: Statement; all: Statement };

  constructor(private readonly db: SqliteDatabase, private readonly redactor: Redactor = new Redactor()) {
    this.statements = lazyStatements({
      get: () => db.prepare('SELECT * FROM ingest_offsets WHERE path = ?'),
      put: () => db.prepare(`INSERT INTO ingest_offsets (path, byte_offset, size, mtime_ms, head_hash, malformed_lines, reader_state, updated_at)
        VALUES (@path, @byteOffset, @size, @mtimeMs, @headHash, @malformedLines, @readerState, @updatedAt)
        ON CONFLICT (path) DO UPDATE SET byte_offset = excluded.byte_offset, size = excluded.size, mtime_ms = excluded.mtime_ms,
          head_hash = excluded.head_hash, malformed_lines = excluded.malformed_lines, reader_state = excluded.reader_state,
          updated_at = excluded.updated_at`),
      all: () => db.prepare('SELECT * FROM ingest_offsets ORDER BY path'),
      delete: () => db.prepare('DELETE FROM ingest_offsets WHERE path = ?'),
    });
  }

  get(path: string): IngestOffset | null {
    const row = this.statements.get.get(path) as IngestOffsetRow | undefined;
    return row ? rowToOffset(row) : null;
  }

  put(offset: IngestOffset): void {
    const readerState = this.redactor.jsonText(offset.readerState);
    this.db.transaction(() => this.statements.put.run({ ...offset, readerState }))();
  }

  /** Every file read so far, e.g. for `engram doctor` to report malformed lines. */
  all(): IngestOffset[] {
    return (this.statements.all.all() as IngestOffsetRow[]).map(rowToOffset);
  }

  /** Forgets a file, so the next read starts from its beginning. */
  delete(path: string): boolean {
    return this.db.transaction(() => this.statements.delete.run(path).changes > 0)();
  }
}
