import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './database';

/**
 * Lists of memories for browsing rather than for recall: every active constraint, in the order a
 * rule book reads (hard pins first). Only rowids come back; MemoryStore turns them into memories
 * (`byRowids`), so the row mapping stays in one place. (The timeline is TimelineStore's.)
 */
export class MemoryListStore {
  private readonly activeConstraintsStatement: Statement;

  constructor(db: SqliteDatabase) {
    this.activeConstraintsStatement = db.prepare(`SELECT rowid FROM memories WHERE kind = 'constraint' AND status = 'active'
      ORDER BY CASE pin WHEN 'hard' THEN 0 WHEN 'soft' THEN 1 ELSE 2 END, created_at, rowid
      LIMIT @limit`).pluck();
  }

  /** Rowids of active constraints: hard pins first, then soft, then unpinned; oldest first within each. */
  activeConstraints(limit: number): number[] {
    return this.activeConstraintsStatement.all({ limit }) as number[];
  }
}
