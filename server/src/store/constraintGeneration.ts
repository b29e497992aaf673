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
  /** Rowids of the constraints as of `seen`; null when not read (a short command's first look). */
  private constraints: Set<number> | null = null;
  private readonly statements;

  /**
   * `eager`: read the constraints at the first look (the memory server, which sees many writes).
   * A short command (a hook, the CLI) reads them only if it sees a change: at 1,000,000 memories
   * the read is ~5–10 ms (30,000 constraints), on every hook; until then a change counts as one.
   */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly changeLog: MemoryChangeLog,
    private readonly generation: () => number,
    private readonly eager: boolean,
  ) {
    this.statements = lazyStatements({
      all: () => db.prepare("SELECT rowid FROM memories WHERE kind = 'constraint'").pluck(),
      among: () => db.prepare("SELECT rowid FROM memories WHERE kind = 'constraint' AND rowid IN (SELECT value FROM json_each(?))").pluck(),
    });
  }

  current(): number {
    if (this.generation() === this.seen) return this.value;
    // One read: a constraint deleted between the generation and the set read would never be seen.
    return this.db.transaction(() => this.lookAgain())();
  }

  private lookAgain(): number {
    const now = this.generation();
    if (now === this.seen) return this.value;
    const first = this.seen < 0;
    const changed = first ? null : this.changeLog.changedBetween(this.seen, now);
    if (first && !this.eager) {
      // Nothing to compare with yet, and maybe never (a command that ends first).
    } else if (changed === null || changed.length > SYNC_ROWS_MAX || !this.constraints) {
      this.constraints = new Set(this.statements.all.all() as number[]);
      if (!first) this.value++;
    } else {
      const constraints = this.constraints;
      const nowConstraints = this.statements.among.all(JSON.stringify(changed)) as number[];
      if (nowConstraints.length || changed.some((rowid) => constraints.has(rowid))) this.value++;
      for (const rowid of changed) constraints.delete(rowid);
      for (const rowid of nowConstraints) constraints.add(rowid);
    }
    this.seen = now;
    return this.value;
  }
}
