import type { SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';
import type { MemoryChangeLog } from './memoryChangeLog';

/** Past this many memories changed since the last look, the constraints are taken as changed. */
const SYNC_ROWS_MAX = 2_000;

/**
 * A generation that moves only when a constraint changes (added, edited, archived, deleted, or a
 * memory made a constraint or no longer one), in any process: what lists of constraints are
 * valid for. Every agent edit, prompt and commit is a memory write; at 1,000,000 memories
 * reading a busy file's governing constraints again took 70–100 ms (~900 of them, found among its
 * 26,000 memories), after every one of those writes, for CodeLens and hover.
 */
export class ConstraintGeneration {
  /** The memories' generation last looked at; -1 before the first look. */
  private seen = -1;
  private value = 0;
  /** Rowids of the constraints as of `seen`. */
  private constraints = new Set<number>();
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    private readonly changeLog: MemoryChangeLog,
    private readonly generation: () => number,
  ) {
    this.statements = lazyStatements({
      all: () => db.prepare("SELECT rowid FROM memories WHERE kind = 'constraint'").pluck(),
      among: () => db.prepare("SELECT rowid FROM memories WHERE kind = 'constraint' AND rowid IN (SELECT value FROM json_each(?))").pluck(),
    });
  }

  current(): number {
    const now = this.generation();
    if (now === this.seen) return this.value;
    const changed = this.seen < 0 ? null : this.changeLog.changedBetween(this.seen, now);
    if (changed === null || changed.length > SYNC_ROWS_MAX) {
      this.constraints = new Set(this.statements.all.all() as number[]);
      this.value++;
    } else {
      const nowConstraints = this.statements.among.all(JSON.stringify(changed)) as number[];
      if (nowConstraints.length || changed.some((rowid) => this.constraints.has(rowid))) this.value++;
      for (const rowid of changed) this.constraints.delete(rowid);
      for (const rowid of nowConstraints) this.constraints.add(rowid);
    }
    this.seen = now;
    return this.value;
  }
}
