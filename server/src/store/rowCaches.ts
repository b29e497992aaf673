import type { Memory } from '../memory/types';
import type { CandidateRow } from './candidateRows';
import { PackedCandidateRows, type RowidMap } from './packedCandidateRows';
import { GenerationMap } from './generationMap';
import type { MemoryChangeLog } from './memoryChangeLog';

/**
 * Recently used scoring rows and indexed texts, where every row is not kept. Small: at 1,000,000
 * memories random queries rarely meet a kept one again, and 50,000 rows and 8,192 texts of up to
 * 4 KB churned through the old generation (the server's heap grew ~90 MB more over 1,000
 * recalls, with the same latency).
 */
const CANDIDATE_ROWS_KEPT = 8192;
const TEXTS_KEPT = 1024;
/**
 * A resident store keeps every scoring row while it has at most this many memories (packed, ~115
 * bytes a row with the columns' room to grow, ~17 MB here); past it, the recently used ones, as
 * short commands do: at 1,000,000 memories every row would be ~115 MB, and reading them all takes
 * ~10 s of a core and pages from all of the database's ~2 GB.
 */
export const RESIDENT_ROWS_MAX = 150_000;
/**
 * Few: a recall reads ten whole memories, and each one kept outlived V8's young generation, so
 * back-to-back recalls in the memory server copied ~1.7 MB at every scavenge (3–4 ms pauses, the
 * bench's p99) with 4,096 kept; ~0.25 MB with 64. Hover and CodeLens keep their own answers; a
 * memory not kept costs ~15 µs from SQLite.
 */
const WHOLE_MEMORIES_KEPT = 64;

/**
 * What is kept of single memories (recall's scoring rows, indexed texts, whole memories), and
 * kept across writes: when the generation moves, the change log (schema v10) says which
 * memories changed and only those are dropped. Before it, a hook's write threw away everything.
 *
 * Resident (the memory server) with at most RESIDENT_ROWS_MAX memories: every memory's scoring
 * row is kept (PackedCandidateRows, ~12 MB at 100,000), loaded in slices after the project opens,
 * and recall then reads none from SQLite. Otherwise the recently used ones.
 */
export class RowCaches {
  readonly candidates: RowidMap<CandidateRow>;
  readonly texts = new GenerationMap<number, string>(TEXTS_KEPT);
  readonly whole = new GenerationMap<number, Memory>(WHOLE_MEMORIES_KEPT);
  private generation = -1;
  private everyCandidate = false;

  /** Whether every scoring row is to be kept: a resident store of at most RESIDENT_ROWS_MAX memories (`memories` when it opened). */
  readonly resident: boolean;

  constructor(
    private readonly changeLog: MemoryChangeLog,
    resident: boolean,
    memories: number,
  ) {
    this.resident = resident && memories <= RESIDENT_ROWS_MAX;
    this.candidates = this.resident ? new PackedCandidateRows() : new GenerationMap(CANDIDATE_ROWS_KEPT);
  }

  /**
   * Brings the caches to `generation`: drops the memories changed since (read again when asked
   * for), or everything when the log cannot tell.
   */
  sync(generation: number): void {
    if (generation === this.generation) return;
    const changed = this.generation < 0 ? null : this.changeLog.changedBetween(this.generation, generation);
    this.generation = generation;
    if (changed === null) {
      this.candidates.clear();
      this.texts.clear();
      this.whole.clear();
      this.everyCandidate = false;
      return;
    }
    for (const rowid of changed) {
      this.candidates.delete(rowid);
      this.texts.delete(rowid);
      this.whole.delete(rowid);
    }
  }

  /** Whether every memory's scoring row was loaded (and changed ones are read again on demand). */
  get hasEveryCandidate(): boolean {
    return this.everyCandidate;
  }

  /** Keeps these rows; `complete` once every memory's row was given (a load in slices ends). */
  keepCandidates(rows: readonly CandidateRow[], complete: boolean): void {
    for (const row of rows) this.candidates.set(row.rowid, row);
    if (complete) this.everyCandidate = true;
  }
}
