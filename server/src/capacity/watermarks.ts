import type { MemoryId } from '../memory/types';
import type { Project } from '../project';
import type { RankedMemory } from '../store/lifecycleStore';
import type { Watermarks } from './settings';

export interface WatermarkReport {
  readonly high: number;
  readonly low: number;
  readonly activeBefore: number;
  readonly activeAfter: number;
  /** Lowest value first (with `dryRun`: what would be archived). */
  readonly archived: readonly MemoryId[];
  /** How far above the low mark the active memories stayed because only hard pins were left. */
  readonly shortfall: number;
}

/**
 * Memories archived per write transaction: the usual run (high − low with the defaults) is one
 * batch, and a first run over a large database holds the write lock for a fraction of a second
 * at a time, never long enough for a hook or another window to run out its busy timeout.
 */
export const ARCHIVE_BATCH = 10_000;

export function assertWatermarks(marks: Watermarks): void {
  if (!Number.isInteger(marks.high) || !Number.isInteger(marks.low) || marks.low < 0 || marks.low > marks.high) {
    throw new RangeError(`watermarks must be whole numbers with 0 ≤ low ≤ high, not high ${marks.high}, low ${marks.low}`);
  }
}

/**
 * Above the high mark, archives the lowest-value active memories (see `memoryValue`) until the
 * low mark: unpinned ones first, soft pins only once no unpinned memory is left, hard pins never.
 * Below the high mark it changes nothing, so a project hovering near the limit is not archived a
 * few memories at a time. The ranking happens in SQLite over one snapshot; archiving follows in
 * batches of ARCHIVE_BATCH, each re-checking that its memories are still active and not hard-pinned.
 */
export function enforceWatermarks(
  project: Pick<Project, 'lifecycle'>,
  marks: Watermarks,
  now: number = Date.now(),
  options: { dryRun?: boolean } = {},
): WatermarkReport {
  assertWatermarks(marks);
  const { lifecycle } = project;
  const { activeBefore, ranked } = lifecycle.snapshot(() => {
    const active = lifecycle.activeCount();
    return { activeBefore: active, ranked: active > marks.high ? lifecycle.lowestValue(active - marks.low, now) : [] };
  });
  const archived = options.dryRun ? ranked.map((m) => m.id) : archiveInBatches(lifecycle, ranked);
  const activeAfter = activeBefore - archived.length;
  return { ...marks, activeBefore, activeAfter, archived, shortfall: activeBefore > marks.high ? Math.max(0, activeAfter - marks.low) : 0 };
}

/** Archives the ranked memories; returns the ids archived, lowest value first. */
function archiveInBatches(lifecycle: Project['lifecycle'], ranked: readonly RankedMemory[]): MemoryId[] {
  // Batches follow rowid order, not value order: each then rewrites one stretch of the table
  // instead of pages all over it, which makes batching as fast as a single transaction.
  const rowids = ranked.map((m) => m.rowid).sort((a, b) => a - b);
  const done = new Set<number>();
  for (let start = 0; start < rowids.length; start += ARCHIVE_BATCH) {
    for (const rowid of lifecycle.archiveRows(rowids.slice(start, start + ARCHIVE_BATCH))) done.add(rowid);
  }
  return ranked.filter((m) => done.has(m.rowid)).map((m) => m.id);
}
