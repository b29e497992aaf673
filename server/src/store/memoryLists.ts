import type { Statement } from 'better-sqlite3';
import type { MemoryKind } from '../memory/types';
import type { SqliteDatabase } from './database';

/** Which memories a timeline shows; every field narrows it. */
export interface TimelineFilter {
  /** Updated at or after this time (ms since the epoch). */
  readonly since?: number;
  /** Tagged with, or pinned in, this project-relative file. */
  readonly file?: string;
  /** Made in this agent session. */
  readonly sessionId?: string;
  readonly kinds?: readonly MemoryKind[];
  readonly limit: number;
}

/**
 * Lists of memories for browsing rather than for recall: the timeline (newest first, archived
 * included, forgotten never) and every active constraint. Only rowids come back; MemoryStore turns
 * them into memories (`byRowids`), so the row mapping stays in one place.
 */
export class MemoryListStore {
  private readonly statements: { timeline: Statement; activeConstraints: Statement };

  constructor(db: SqliteDatabase) {
    this.statements = {
      timeline: db.prepare(`SELECT m.rowid FROM memories m
        WHERE m.status != 'forgotten' AND m.updated_at >= @since
          AND (@file IS NULL
            OR m.rowid IN (SELECT memory_rowid FROM memory_files WHERE path = @file)
            OR m.rowid IN (SELECT memory_rowid FROM anchors WHERE path = @file))
          AND (@sessionId IS NULL OR m.session_id = @sessionId)
          AND (@kinds IS NULL OR m.kind IN (SELECT value FROM json_each(@kinds)))
        ORDER BY m.updated_at DESC, m.rowid DESC
        LIMIT @limit`).pluck(),
      activeConstraints: db.prepare(`SELECT rowid FROM memories WHERE kind = 'constraint' AND status = 'active'
        ORDER BY CASE pin WHEN 'hard' THEN 0 WHEN 'soft' THEN 1 ELSE 2 END, created_at, rowid
        LIMIT @limit`).pluck(),
    };
  }

  /** Rowids of the memories the filter selects, most recently updated first. */
  timeline(filter: TimelineFilter): number[] {
    return this.statements.timeline.all({
      since: filter.since ?? 0,
      file: filter.file ?? null,
      sessionId: filter.sessionId ?? null,
      kinds: filter.kinds?.length ? JSON.stringify(filter.kinds) : null,
      limit: filter.limit,
    }) as number[];
  }

  /** Rowids of active constraints: hard pins first, then soft, then unpinned; oldest first within each. */
  activeConstraints(limit: number): number[] {
    return this.statements.activeConstraints.all({ limit }) as number[];
  }
}
