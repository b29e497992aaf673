/** The index of the last value of `sorted` (ascending) at or below `value`; 0 when none is. */
export function lastAtOrBelow(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (sorted[middle]! <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}
