import type { SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';
import type { SessionRow, SessionTouchRow } from './timelineStore';

/** A file with at most this many memories has them read and grouped by session (~5 µs each at 1,000,000). */
const GROUPED_MAX = 5_000;
/** Entries of the updated_at index a walk reads at a time, and at most in all before it groups instead. */
const WALK_CHUNK = 2_000;
const WALK_MAX = 50_000;

/**
 * The agent sessions that made memories about a file, most recently active there first, with how
 * many of the file's memories each made (the memory panel's "Agent sessions here"). Grouping
 * every memory of a busy file read each one's row: ~110 ms for the 26,000 of the busiest at
 * 1,000,000 memories, every time the cursor moved. Such a file's memories are found newest first
 * instead, down the updated_at index (entries only), reading the rows of the file's alone until
 * enough sessions are seen; each one's count then comes from the session index.
 */
export class FileSessions {
  private readonly statements;

  /** `sessionsById`: the sessions table's rows for some ids (TimelineStore.sessions). */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly sessionsById: (ids: readonly string[]) => SessionRow[],
  ) {
    this.statements = lazyStatements({
      fileRowids: () => db.prepare('SELECT memory_rowid FROM memory_files WHERE path = @path UNION ALL SELECT memory_rowid FROM anchors WHERE path = @path').pluck(),
      grouped: () =>
        db.prepare(`SELECT m.session_id AS id, s.agent AS agent, s.title AS title, s.started_at AS startedAt,
            count(*) AS memories, max(m.updated_at) AS lastAt
          FROM memories m LEFT JOIN sessions s ON s.id = m.session_id
          WHERE m.rowid IN (SELECT value FROM json_each(@rowids)) AND m.session_id IS NOT NULL AND m.status != 'forgotten'
          GROUP BY m.session_id
          ORDER BY lastAt DESC
          LIMIT @limit`),
      newest: () => db.prepare('SELECT rowid, updated_at FROM memories WHERE (updated_at, rowid) < (@at, @rowid) ORDER BY updated_at DESC, rowid DESC LIMIT @chunk').raw(),
      sessionOf: () => db.prepare('SELECT session_id, status FROM memories WHERE rowid = ?').raw(),
      ofSession: () => db.prepare("SELECT rowid FROM memories WHERE session_id = ? AND status IN ('active', 'archived')").pluck(),
    });
  }

  of(path: string, limit: number): SessionTouchRow[] {
    // One read transaction: another process's delete between the reads cannot leave a row missing.
    return this.db.transaction(() => this.read(path, limit))();
  }

  private read(path: string, limit: number): SessionTouchRow[] {
    const rowids = new Set(this.statements.fileRowids.all({ path }) as number[]);
    const grouped = () => this.statements.grouped.all({ rowids: JSON.stringify([...rowids]), limit }) as SessionTouchRow[];
    if (rowids.size <= GROUPED_MAX) return grouped();
    const lastAt = this.newestSessions(rowids, limit);
    if (!lastAt) return grouped();
    const known = new Map(this.sessionsById([...lastAt.keys()]).map((s) => [s.id, s]));
    return [...lastAt].map(([id, at]) => ({
      id,
      agent: known.get(id)?.agent ?? null,
      title: known.get(id)?.title ?? null,
      startedAt: known.get(id)?.startedAt ?? null,
      memories: (this.statements.ofSession.all(id) as number[]).filter((rowid) => rowids.has(rowid)).length,
      lastAt: at,
    }));
  }

  /**
   * The first `limit` sessions met among the file's memories that are not forgotten, newest first,
   * with the last change of each (its first met); null when WALK_MAX entries were not enough.
   */
  private newestSessions(rowids: ReadonlySet<number>, limit: number): Map<string, number> | null {
    const found = new Map<string, number>();
    let at = Number.MAX_SAFE_INTEGER;
    let rowid = Number.MAX_SAFE_INTEGER;
    for (let walked = 0; walked < WALK_MAX; walked += WALK_CHUNK) {
      const chunk = this.statements.newest.all({ at, rowid, chunk: WALK_CHUNK }) as [number, number][];
      for (const [memory, updatedAt] of chunk) {
        if (!rowids.has(memory)) continue;
        const [session, status] = this.statements.sessionOf.get(memory) as [string | null, string];
        if (session === null || status === 'forgotten' || found.has(session)) continue;
        found.set(session, updatedAt);
        if (found.size === limit) return found;
      }
      if (chunk.length < WALK_CHUNK) return found;
      [rowid, at] = chunk[chunk.length - 1]!;
    }
    return null;
  }
}
