import type { SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';

/**
 * The memories' generation (schema v10): the newest entry of the change log, moved by any
 * process's write to a memory, and by nothing else (editor state, injections, usage).
 */
export const GENERATION_SQL = 'SELECT coalesce(max(seq), 0) FROM memory_changes';

/** Moves with the memories' generation and whenever a memory is shown or acted on (migration 009). */
export const GENERATION_WITH_USAGE_SQL = `SELECT (${GENERATION_SQL}) + usage_n FROM memory_generation WHERE id = 1`;

/** Which memories changed between two generations (migration 010). */
export class MemoryChangeLog {
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.statements = lazyStatements({
      oldest: () => db.prepare('SELECT min(seq) FROM memory_changes').pluck(),
      changed: () => db.prepare('SELECT DISTINCT memory_rowid FROM memory_changes WHERE seq > @after AND seq <= @upTo').pluck(),
    });
  }

  /**
   * Rowids of the memories written (added, changed or deleted) after generation `after` up to
   * `upTo`, or null when the log no longer reaches back that far (pruned) and a reader must
   * read everything again.
   */
  changedBetween(after: number, upTo: number): number[] | null {
    if (upTo <= after) return [];
    const oldest = this.statements.oldest.get() as number | null;
    if (oldest === null || oldest > after + 1) return null;
    return this.statements.changed.all({ after, upTo }) as number[];
  }
}
