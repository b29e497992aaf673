import type { LineRange } from './symbolsForRanges';

/**
 * Where in the new text each removal that added nothing in its place happened: the lines on
 * either side of the gap it left. `oldLines` and `newLines` are one diff's removed and added
 * lines, ascending; an unchanged line keeps its order, so walking both finds each gap.
 */
export function removalPoints(oldLines: readonly LineRange[], newLines: readonly LineRange[]): LineRange[] {
  const points: LineRange[] = [];
  // New line number minus old line number of the unchanged lines reached so far.
  let shift = 0;
  let added = 0;
  for (const removed of oldLines) {
    while (added < newLines.length && newLines[added]!.startLine < removed.startLine + shift) shift += length(newLines[added++]!);
    const there = removed.startLine + shift;
    if (added < newLines.length && newLines[added]!.startLine === there) {
      // Replaced: the added lines are where the removed ones were.
      shift += length(newLines[added++]!) - length(removed);
    } else {
      points.push({ startLine: Math.max(0, there - 1), endLine: there });
      shift -= length(removed);
    }
  }
  return points;
}

function length(range: LineRange): number {
  return range.endLine - range.startLine + 1;
}
