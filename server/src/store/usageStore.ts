import type { Statement } from 'better-sqlite3';
import { lazyStatements } from './lazyStatements';
import type { SqliteDatabase } from './database';

export interface Usage {
  readonly shown: number;
  readonly acted: number;
}

/** The only SQL over memory_usage: shown / acted-on counts per memory. */
export class UsageStore {
  private readonly statements: { shown: Statement; acted: Statement; byRowid: Statement };

  constructor(db: SqliteDatabase) {
    this.statements = lazyStatements({
      // One statement for all: a session start shows up to ~200 memories.
      shown: () => db.prepare(`INSERT INTO memory_usage (memory_rowid, shown, last_shown_at)
        SELECT rowid, 1, @now FROM memories WHERE id IN (SELECT value FROM json_each(@ids))
        ON CONFLICT (memory_rowid) DO UPDATE SET shown = shown + 1, last_shown_at = @now`),
      acted: () => db.prepare(`INSERT INTO memory_usage (memory_rowid, acted, last_acted_at) SELECT rowid, 1, @now FROM memories WHERE id = @id
        ON CONFLICT (memory_rowid) DO UPDATE SET acted = acted + 1, last_acted_at = @now`),
      byRowid: () => db.prepare('SELECT memory_rowid AS rowid, shown, acted FROM memory_usage WHERE memory_rowid IN (SELECT value FROM json_each(?))'),
    });
  }

  /** The memories were shown (given to an agent, shown in a hover or panel). */
  shown(ids: readonly string[], now: number = Date.now()): void {
    if (!ids.length) return;
    this.statements.shown.run({ ids: JSON.stringify([...new Set(ids)]), now });
  }

  /** The user or an agent did something with the memory after seeing it. */
  acted(id: string, now: number = Date.now()): void {
    this.statements.acted.run({ id, now });
  }

  /** Usage of memories by rowid; absent rows mean never shown. */
  byRowid(rowids: readonly number[]): Map<number, Usage> {
    const rows = this.statements.byRowid.all(JSON.stringify(rowids)) as { rowid: number; shown: number; acted: number }[];
    return new Map(rows.map((r) => [r.rowid, { shown: r.shown, acted: r.acted }]));
  }
}
