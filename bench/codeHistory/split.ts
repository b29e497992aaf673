/** The share of the first-parent history imported before the split (issue 22). */
export const SPLIT_SHARE = 0.8;

/**
 * The split commit: the last of the first `share` of the first-parent history, oldest first. The
 * history up to it is imported; the commits after it are the questions.
 */
export function splitCommit(firstParentOldestFirst: readonly string[], share = SPLIT_SHARE): string {
  if (!firstParentOldestFirst.length) throw new Error('a history without commits has no split');
  const index = Math.max(0, Math.ceil(firstParentOldestFirst.length * share) - 1);
  return firstParentOldestFirst[index]!;
}

/** At most `max` items, evenly spaced over the list (first included): a deterministic sample. */
export function evenSample<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * items.length) / max)]!);
}
