import type { Statement } from 'better-sqlite3';
import { lazyStatements } from './lazyStatements';
import type { SqliteDatabase } from './database';
import { GENERATION_WITH_USAGE_SQL } from './memoryChangeLog';

export interface Usage {
  readonly shown: number;
  readonly acted: number;
}

/**
 * The memory server reads up to this many usage rows at once and keeps them until a memory or
 * its usage changes: recall asks for the usage of its few hundred candidates at every query,
 * ~0.1 ms by rowid even when the table is empty. A short command (a hook) recalls once or twice
 * and asks by rowid.
 */
const KEPT_WHOLE_MAX = 4096;

/** The only SQL over memory_usage: shown / acted-on counts per memory. */
export class UsageStore {
  private readonly statements: { shown: Statement; acted: Statement; byRowid: Statement; all: Statement; countUpToMax: Statement; generation: Statement };
  /** The whole table while it is small, at the generation it was read. */
  private kept: { readonly generation: number; readonly byRowid: ReadonlyMap<number, Usage> | null } | null = null;

  /** `resident`: a long-running process (the memory server) keeps a small table whole. */
  constructor(
    db: SqliteDatabase,
    private readonly resident = false,
  ) {
    this.statements = lazyStatements({
      // One statement for all: a session start shows up to ~200 memories.
      shown: () => db.prepare(`INSERT INTO memory_usage (memory_rowid, shown, last_shown_at)
        SELECT rowid, 1, @now FROM memories WHERE id IN (SELECT value FROM json_each(@ids))
        ON CONFLICT (memory_rowid) DO UPDATE SET shown = shown + 1, last_shown_at = @now`),
      acted: () => db.prepare(`INSERT INTO memory_usage (memory_rowid, acted, last_acted_at) SELECT rowid, 1, @now FROM memories WHERE id = @id
        ON CONFLICT (memory_rowid) DO UPDATE SET acted = acted + 1, last_acted_at = @now`),
      byRowid: () => db.prepare('SELECT memory_rowid AS rowid, shown, acted FROM memory_usage WHERE memory_rowid IN (SELECT value FROM json_each(?))'),
      all: () => db.prepare('SELECT memory_rowid AS rowid, shown, acted FROM memory_usage'),
      countUpToMax: () => db.prepare(`SELECT count(*) FROM (SELECT 1 FROM memory_usage LIMIT ${KEPT_WHOLE_MAX + 1})`).pluck(),
      // Moves when a memory changes too: a deleted memory's rowid may be given to a new one.
      generation: () => db.prepare(GENERATION_WITH_USAGE_SQL).pluck(),
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
    const whole = this.resident ? this.wholeTable() : null;
    if (whole) {
      const found = new Map<number, Usage>();
      if (whole.size) {
        for (const rowid of rowids) {
          const usage = whole.get(rowid);
          if (usage) found.set(rowid, usage);
        }
      }
      return found;
    }
    const rows = this.statements.byRowid.all(JSON.stringify(rowids)) as { rowid: number; shown: number; acted: number }[];
    return new Map(rows.map((r) => [r.rowid, { shown: r.shown, acted: r.acted }]));
  }

  /** The whole table while it has at most KEPT_WHOLE_MAX rows, else null. */
  private wholeTable(): ReadonlyMap<number, Usage> | null {
    const generation = this.statements.generation.get() as number;
    if (this.kept?.generation !== generation) {
      // Counted first: a large table is not turned into thousands of objects to be dropped.
      const small = (this.statements.countUpToMax.get() as number) <= KEPT_WHOLE_MAX;
      const rows = small ? (this.statements.all.all() as { rowid: number; shown: number; acted: number }[]) : [];
      this.kept = { generation, byRowid: small ? new Map(rows.map((r) => [r.rowid, { shown: r.shown, acted: r.acted }])) : null };
    }
    return this.kept.byRowid;
  }
}
