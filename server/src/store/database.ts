import Database from 'better-sqlite3';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS, type Migration } from './migrations';
import { findNativeBinding } from './nativeBinding';

export type SqliteDatabase = Database.Database;
export type SqliteStatement = Database.Statement;

/** The database was written by a newer Engram; we refuse rather than downgrade it. */
export class SchemaTooNewError extends Error {
  constructor(readonly file: string, readonly found: number, readonly known: number) {
    super(
      `The memory database ${file} has schema version ${found}, newer than this Engram understands ` +
        `(${known}). Update Engram; the database was left untouched.`,
    );
    this.name = 'SchemaTooNewError';
  }
}

export interface OpenedDatabase {
  readonly db: SqliteDatabase;
  readonly file: string;
  /** Problems the user must hear about: a corrupt file moved aside. */
  readonly notices: readonly string[];
  /** What happened as it should, for the log: a backup taken before a migration. */
  readonly infos: readonly string[];
  /** The copy taken before a migration at this open, if one was. */
  readonly backup: string | null;
}

const BUSY_TIMEOUT_MS = 5000;
const UNREADABLE_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);

function timestamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

/**
 * Page size of databases created from now on (SQLite's default is 4,096). A memory row with its
 * diff is one to a few KB: on 4 KB pages many spill onto overflow pages, and an import of 100,000
 * memories made ~590,000 page reads and writes; on 16 KB pages it takes ~15 % less time and less
 * system time (docs/performance.md). Existing databases keep theirs.
 */
const NEW_DATABASE_PAGE_SIZE = 16_384;

/**
 * The write-ahead log is cut back to this when a checkpoint lets it start over. Bulk writers (an
 * import, the history import, a transcript's slices) defer checkpoints while they write, and
 * without a limit the WAL they grew (170–250 MB) stayed on disk for good.
 */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

function configure(db: SqliteDatabase): void {
  // busy_timeout first: every later statement, including the WAL switch, then waits for other
  // writers (hooks, MCP servers, the CLI) instead of failing with SQLITE_BUSY.
  // A hook lowers it (ENGRAM_BUSY_TIMEOUT_MS) to stay inside its own time limit.
  const requested = Number(process.env.ENGRAM_BUSY_TIMEOUT_MS);
  db.pragma(`busy_timeout = ${Number.isInteger(requested) && requested >= 0 && requested < BUSY_TIMEOUT_MS ? requested : BUSY_TIMEOUT_MS}`);
  // Only a new, empty file takes it (SQLite ignores it once the database has pages or is in WAL).
  db.pragma(`page_size = ${NEW_DATABASE_PAGE_SIZE}`);
  db.pragma('journal_mode = WAL');
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
}

/** Opens a connection and reads the schema version, which is where a non-SQLite file shows itself. */
function connectAndReadVersion(file: string): { db: SqliteDatabase; version: number } {
  const db = new Database(file, { nativeBinding: findNativeBinding() });
  try {
    configure(db);
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    return { db, version: db.pragma('user_version', { simple: true }) as number };
  } catch (error) {
    db.close();
    throw error;
  }
}

function isUnreadable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && UNREADABLE_CODES.has((error as { code?: string }).code ?? '');
}

/** Moves a database that SQLite cannot read out of the way, keeping every byte of it; returns where to. */
export function moveAside(file: string): string {
  const aside = `${file}.corrupt-${timestamp()}`;
  renameSync(file, aside);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  }
  return aside;
}

/**
 * A copy of the database as it is now, beside it (`<file>.backup-v<schema>-<time>`), taken
 * before anything rewrites it (a migration, a redaction sweep); returns its path.
 */
export function backUpDatabase(db: SqliteDatabase, file: string): string {
  const backup = `${file}.backup-v${db.pragma('user_version', { simple: true }) as number}-${timestamp()}`;
  db.prepare('VACUUM INTO ?').run(backup);
  return backup;
}

function migrate(db: SqliteDatabase, file: string, from: number, migrations: readonly Migration[], infos: string[]): string | null {
  let backup: string | null = null;
  if (from > 0) {
    backup = backUpDatabase(db, file);
    infos.push(`Backed up ${file} to ${backup} before migrating from schema ${from} to ${migrations.length}.`);
  }
  const apply = db.transaction(() => {
    // Another process may have migrated while we waited for the write lock.
    const current = db.pragma('user_version', { simple: true }) as number;
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }
  });
  apply.immediate();
  return backup;
}

/**
 * Opens (creating if needed) a project's memory database: WAL, busy timeout, foreign keys, and
 * the schema brought up to date. A file SQLite cannot read is moved aside, never overwritten.
 */
export function openDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): OpenedDatabase {
  mkdirSync(path.dirname(file), { recursive: true });
  const notices: string[] = [];
  const infos: string[] = [];
  let opened: { db: SqliteDatabase; version: number };
  try {
    opened = connectAndReadVersion(file);
  } catch (error) {
    if (!isUnreadable(error)) throw error;
    const aside = moveAside(file);
    notices.push(`${file} is not a readable SQLite database (${(error as Error).message}); moved it to ${aside} and started a new one.`);
    opened = connectAndReadVersion(file);
  }
  const { db, version } = opened;
  if (version > migrations.length) {
    db.close();
    throw new SchemaTooNewError(file, version, migrations.length);
  }
  let backup: string | null = null;
  if (version < migrations.length) {
    try {
      backup = migrate(db, file, version, migrations, infos);
    } catch (error) {
      db.close();
      throw error;
    }
  }
  return { db, file, notices, infos, backup };
}
