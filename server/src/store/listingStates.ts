import type { SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';
import type { MemoryChangeLog } from './memoryChangeLog';

/** Index entries read per slice of a build: ~40 ms at 1,000,000 memories on a slow machine. */
const BUILD_SLICE = 50_000;
/** Past this many memories changed since the states were current, they are built again. */
const SYNC_ROWS_MAX = 20_000;
/** A store whose rowids reach past this (never one Engram numbered itself) is read per tally: its arrays would not be small. */
const ROWID_MAX = 2 ** 24;

/** Where a build has got to: the generation it started at and the last entry it read. */
interface Build {
  readonly generation: number;
  readonly afterUpdated: number;
  readonly afterRowid: number;
}

/** Whether CodeLens lists a memory of this kind and status: active, not a constraint (rules are counted apart). */
export function isListedState(kind: string, status: string): boolean {
  return status === 'active' && kind !== 'constraint';
}

/** Whether CodeLens lists a memory (isListedState), and when it last changed. */
export interface ListingLookup {
  readonly isListed: (rowid: number) => boolean;
  readonly updatedAt: (rowid: number) => number;
}

/**
 * For each memory (by rowid), whether CodeLens lists it (active, not a constraint) and when it
 * last changed: 9 bytes a memory, 9 MB at 1,000,000. A file's tally (fileMemoryTally.ts) then
 * reads only memory_files and memory_symbols, whose rows are a few bytes: reading the kind and
 * status of each of a hot file's 26,000 memories from `memories` (a 16 KB page each) took 90–130
 * ms a query at 1,000,000, three queries a tally, again after every write. Built from the
 * covering index on (status, updated_at) in slices, then kept current from the change log.
 */
export class ListingStates {
  private listed = new Uint8Array(0);
  private updated = new Float64Array(0);
  /** The generation the states are current with; -1 before the first build ends. */
  private current = -1;
  private build: Build | null = null;
  /** Rowids too large to keep arrays for, or a read failed: each tally reads its own states. */
  private unusable = false;
  private readonly statements;

  private readonly slice: number;
  private readonly syncRowsMax: number;
  private readonly rowidMax: number;

  constructor(
    db: SqliteDatabase,
    private readonly changeLog: MemoryChangeLog,
    private readonly generation: () => number,
    options: { readonly slice?: number; readonly syncRowsMax?: number; readonly rowidMax?: number } = {},
  ) {
    this.slice = options.slice ?? BUILD_SLICE;
    this.syncRowsMax = options.syncRowsMax ?? SYNC_ROWS_MAX;
    this.rowidMax = options.rowidMax ?? ROWID_MAX;
    this.statements = lazyStatements({
      highestRowid: () => db.prepare('SELECT max(rowid) FROM memories').pluck(),
      listedAfter: () =>
        db
          .prepare(
            // The covering (status, updated_at) index, as the planner picks it: not INDEXED BY, which
            // fails outright while an import into an empty store has set the index aside (deferredIndexes.ts).
            `SELECT rowid, updated_at FROM memories
             WHERE status = 'active' AND (updated_at, rowid) > (@afterUpdated, @afterRowid) ORDER BY updated_at, rowid LIMIT @limit`,
          )
          .raw(),
      activeConstraints: () => db.prepare("SELECT rowid FROM memories WHERE kind = 'constraint' AND status = 'active'").pluck(),
      states: () => db.prepare('SELECT rowid, kind, status, updated_at FROM memories WHERE rowid IN (SELECT value FROM json_each(?))').raw(),
    });
  }

  /** Whether a build or an update is due: the states are not current with the memories. */
  get stale(): boolean {
    return this.current !== this.generation();
  }

  /**
   * One slice of work towards current states (the memory server's background job): a slice of a
   * build, or an update from the change log; null when there was nothing to do.
   */
  advance(): 'building' | 'built' | 'updated' | null {
    if (this.unusable) return null;
    try {
      if (this.build) return this.buildSlice(this.build);
      if (!this.stale) return null;
      return this.update() ? 'updated' : 'building';
    } catch (error) {
      // A broken database: each tally reads its own states from now on, and the job says so once.
      this.giveUp();
      throw error;
    }
  }

  /**
   * The states, current with the memories; null while they are being built (or when a store's
   * rowids are too large to keep them, or reading them failed): the caller reads the states it
   * needs itself. Not built here: a
   * build takes ~0.4–0.7 s at 1,000,000, longer than reading one hot file's states.
   */
  read(): ListingLookup | null {
    // A build under way has set `current` to -1.
    if (this.unusable || this.current < 0) return null;
    try {
      if (this.stale && !this.update()) return null;
    } catch {
      this.giveUp();
      return null;
    }
    const listed = this.listed;
    const updated = this.updated;
    return { isListed: (rowid) => rowid < listed.length && listed[rowid] === 1, updatedAt: (rowid) => updated[rowid] ?? 0 };
  }

  /** Brings the states up to date from the change log; false when that cannot be done and a build starts instead. */
  private update(): boolean {
    const now = this.generation();
    const changed = this.current < 0 ? null : this.changeLog.changedBetween(this.current, now);
    if (changed === null || changed.length > this.syncRowsMax) {
      this.startBuild(now);
      return false;
    }
    for (const rowid of changed) if (rowid < this.listed.length) this.listed[rowid] = 0;
    for (const [rowid, kind, status, updatedAt] of this.statements.states.all(JSON.stringify(changed)) as [number, string, string, number][]) {
      this.set(rowid, isListedState(kind, status), updatedAt);
    }
    this.current = now;
    return true;
  }

  private startBuild(now: number): void {
    // Read first: a write landing during the build is in the change log from `now` and applied again.
    const size = ((this.statements.highestRowid.get() as number | null) ?? 0) + 1;
    if (size > this.rowidMax) {
      this.giveUp();
      return;
    }
    this.listed = new Uint8Array(size + (size >>> 3));
    this.updated = new Float64Array(this.listed.length);
    this.current = -1;
    this.build = { generation: now, afterUpdated: Number.NEGATIVE_INFINITY, afterRowid: -1 };
  }

  private buildSlice(build: Build): 'building' | 'built' {
    const rows = this.statements.listedAfter.all({ afterUpdated: build.afterUpdated, afterRowid: build.afterRowid, limit: this.slice }) as [number, number][];
    for (const [rowid, updatedAt] of rows) this.set(rowid, true, updatedAt);
    if (rows.length === this.slice) {
      const [afterRowid, afterUpdated] = rows[rows.length - 1]!;
      if (this.build) this.build = { generation: build.generation, afterUpdated, afterRowid };
      return 'building';
    }
    // Constraints are listed apart (few): the index holds status and time, not kind.
    for (const rowid of this.statements.activeConstraints.all() as number[]) if (rowid < this.listed.length) this.listed[rowid] = 0;
    if (!this.build) return 'built';
    this.build = null;
    this.current = build.generation;
    return 'built';
  }

  private set(rowid: number, listed: boolean, updatedAt: number): void {
    if (this.unusable) return;
    if (rowid >= this.listed.length) {
      if (!listed) return;
      if (rowid >= this.rowidMax) {
        this.giveUp();
        return;
      }
      this.grow(rowid);
    }
    this.listed[rowid] = listed ? 1 : 0;
    this.updated[rowid] = updatedAt;
  }

  private giveUp(): void {
    this.unusable = true;
    this.build = null;
    this.listed = new Uint8Array(0);
    this.updated = new Float64Array(0);
  }

  /** Room for `rowid` and an eighth more, for the memories added after it. */
  private grow(rowid: number): void {
    const size = Math.max(rowid + 1, Math.ceil(this.listed.length * 1.125));
    const listed = new Uint8Array(size);
    listed.set(this.listed);
    const updated = new Float64Array(size);
    updated.set(this.updated);
    this.listed = listed;
    this.updated = updated;
  }
}
