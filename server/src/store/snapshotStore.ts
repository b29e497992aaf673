import { sha256Hex } from '../util/hashing';
import { lazyStatements } from './lazyStatements';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './database';
import { renamedPath } from '../paths/engramPaths';

/** The last known content of one file, as captured. */
export interface FileSnapshot {
  readonly path: string;
  readonly hash: string;
  readonly content: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly seenAt: number;
}

/** Default bound of the snapshot cache: the text of every file we may need to diff against. */
export const DEFAULT_SNAPSHOT_BUDGET_BYTES = 256 * 1024 * 1024;

export function contentHash(text: string): string {
  return sha256Hex(text);
}

/** SQL for file snapshots and their content-addressed blobs. */
export class SnapshotStore {
  private readonly statements: {
    get: Statement;
    meta: Statement;
    all: Statement;
    putBlob: Statement;
    putSnapshot: Statement;
    touch: Statement;
    remove: Statement;
    rename: Statement;
    dropBlobIfUnused: Statement;
    totalBytes: Statement;
    oldest: Statement;
  };

  constructor(private readonly db: SqliteDatabase, private readonly budgetBytes: number = DEFAULT_SNAPSHOT_BUDGET_BYTES) {
    this.statements = lazyStatements({
      get: () => db.prepare(`SELECT s.path, s.hash, b.content, s.size, s.mtime_ms AS mtimeMs, s.seen_at AS seenAt
        FROM file_snapshots s JOIN file_blobs b ON b.hash = s.hash WHERE s.path = ?`),
      meta: () => db.prepare('SELECT path, hash, size, mtime_ms AS mtimeMs, seen_at AS seenAt FROM file_snapshots WHERE path = ?'),
      all: () => db.prepare('SELECT path, hash, size, mtime_ms AS mtimeMs, seen_at AS seenAt FROM file_snapshots ORDER BY path'),
      putBlob: () => db.prepare('INSERT OR IGNORE INTO file_blobs (hash, content, bytes) VALUES (@hash, @content, @bytes)'),
      putSnapshot: () => db.prepare(`INSERT INTO file_snapshots (path, hash, size, mtime_ms, seen_at) VALUES (@path, @hash, @size, @mtimeMs, @seenAt)
        ON CONFLICT (path) DO UPDATE SET hash = excluded.hash, size = excluded.size, mtime_ms = excluded.mtime_ms, seen_at = excluded.seen_at`),
      touch: () => db.prepare('UPDATE file_snapshots SET mtime_ms = @mtimeMs, size = @size, seen_at = @seenAt WHERE path = @path'),
      remove: () => db.prepare('DELETE FROM file_snapshots WHERE path = ?'),
      rename: () => db.prepare('UPDATE OR REPLACE file_snapshots SET path = @to WHERE path = @from'),
      // Targeted, not a scan: only the blob a snapshot stopped pointing at can have become unused.
      dropBlobIfUnused: () => db.prepare('DELETE FROM file_blobs WHERE hash = ? AND NOT EXISTS (SELECT 1 FROM file_snapshots WHERE hash = file_blobs.hash)'),
      totalBytes: () => db.prepare('SELECT coalesce(sum(bytes), 0) AS n FROM file_blobs'),
      oldest: () => db.prepare('SELECT path FROM file_snapshots ORDER BY seen_at LIMIT ?'),
    });
  }

  get(path: string): FileSnapshot | null {
    return (this.statements.get.get(path) as FileSnapshot | undefined) ?? null;
  }

  /** Size and mtime only: enough to tell whether a file on disk changed since it was captured. */
  stat(path: string): Omit<FileSnapshot, 'content'> | null {
    return (this.statements.meta.get(path) as Omit<FileSnapshot, 'content'> | undefined) ?? null;
  }

  list(): Omit<FileSnapshot, 'content'>[] {
    return this.statements.all.all() as Omit<FileSnapshot, 'content'>[];
  }

  /** Records `content` as the last known version of `path`, then keeps the cache within its budget. */
  put(path: string, content: string, stat: { size: number; mtimeMs: number }, now: number = Date.now()): string {
    const hash = contentHash(content);
    this.db.transaction(() => {
      const previous = this.stat(path);
      this.statements.putBlob.run({ hash, content, bytes: Buffer.byteLength(content) });
      this.statements.putSnapshot.run({ path, hash, size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs), seenAt: now });
      if (previous && previous.hash !== hash) this.statements.dropBlobIfUnused.run(previous.hash);
      this.evictOverBudget(path);
    })();
    return hash;
  }

  touch(path: string, stat: { size: number; mtimeMs: number }, now: number = Date.now()): void {
    this.statements.touch.run({ path, size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs), seenAt: now });
  }

  remove(path: string): void {
    this.db.transaction(() => this.removeOne(path))();
  }

  private removeOne(path: string): void {
    const previous = this.stat(path);
    this.statements.remove.run(path);
    if (previous) this.statements.dropBlobIfUnused.run(previous.hash);
  }

  /** Follows a renamed file or folder (every snapshot under it). */
  rename(from: string, to: string): void {
    this.db.transaction(() => {
      for (const { path } of this.list()) {
        const moved = renamedPath(path, from, to);
        if (moved) this.statements.rename.run({ from: path, to: moved });
      }
    })();
  }

  totalBytes(): number {
    return (this.statements.totalBytes.get() as { n: number }).n;
  }

  /** Least recently seen files go first; the file just written always stays. */
  private evictOverBudget(keep: string): void {
    while (this.totalBytes() > this.budgetBytes) {
      const victims = (this.statements.oldest.all(16) as { path: string }[]).filter((v) => v.path !== keep);
      if (victims.length === 0) return;
      for (const victim of victims) this.removeOne(victim.path);
    }
  }
}
