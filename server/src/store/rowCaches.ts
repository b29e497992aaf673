import type { Memory } from '../memory/types';
import type { CandidateRow } from './candidateRows';
import { DenseRowidMap, type RowidMap } from './denseRowidMap';
import { GenerationMap } from './generationMap';
import type { MemoryChangeLog } from './memoryChangeLog';

const CANDIDATE_ROWS_KEPT = 50_000;
/**
 * Few: a recall reads ten whole memories, and each one kept outlived V8's young generation, so
 * back-to-back recalls in the memory server copied ~1.7 MB at every scavenge (3–4 ms pauses, the
 * bench's p99) with 4,096 kept; ~0.25 MB with 64. Hover and CodeLens keep their own answers; a
 * memory not kept costs ~15 µs from SQLite.
 */
const WHOLE_MEMORIES_KEPT = 64;
const TEXTS_KEPT = 8192;

/**
 * What is kept of single memories (recall's scoring rows, indexed texts, whole memories), and
 * kept across writes: when the generation moves, the change log (schema v10) says which
 * memories changed and only those are dropped. Before it, a hook's write threw away everything.
 *
 * Resident (the memory server): every memory's scoring row is kept (~330 bytes a memory, ~33 MB
 * at 100,000) and recall reads none from SQLite. Otherwise the recently used ones.
 */
export class RowCaches {
  readonly candidates: RowidMap<CandidateRow>;
  readonly texts = new GenerationMap<number, string>(TEXTS_KEPT);
  readonly whole = new GenerationMap<number, Memory>(WHOLE_MEMORIES_KEPT);
  private generation = -1;
  private everyCandidate = false;

  constructor(
    private readonly changeLog: MemoryChangeLog,
    readonly resident: boolean,
  ) {
    this.candidates = resident ? new DenseRowidMap() : new GenerationMap(CANDIDATE_ROWS_KEPT);
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

  keepEveryCandidate(rows: readonly CandidateRow[]): void {
    for (const row of rows) this.candidates.set(row.rowid, row);
    this.everyCandidate = true;
  }
}
