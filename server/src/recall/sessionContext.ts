/**
 * Session context: a memory recorded right before or after a strong text match in the same
 * session (the reply after a question that matched, the change after a prompt that matched)
 * shares part of that match's rank. What it gains on LoCoMo: docs/recall-quality.md.
 */

/** Share of a match's rank each of its neighbours gets. */
export const SESSION_CONTEXT_WEIGHT = 0.4;
/** Memories before and after a match that count as its neighbours. */
export const SESSION_CONTEXT_SPAN = 2;
/** Only the best matches lend rank: a weak match's neighbours would not reach the top anyway, and each lookup costs. */
export const SESSION_CONTEXT_MATCHES = 10;

export interface SessionContext {
  /** The ranks with the neighbours' shares added (negative; lower is better). */
  readonly ranks: Map<number, number>;
  /** Memories that rank only as neighbours of a match (no word of their own matched). */
  readonly neighboursOnly: ReadonlySet<number>;
}

/**
 * Adds to each neighbour of the strongest matches `weight` × the match's rank, on top of its own
 * rank if it matched too; a memory next to two matches takes the better share, not both.
 * `neighbours` gives, per rowid, the memories recorded around it in its session.
 */
export function withSessionContext(
  ranks: ReadonlyMap<number, number>,
  neighbours: (rowids: readonly number[]) => ReadonlyMap<number, readonly number[]>,
  weight: number = SESSION_CONTEXT_WEIGHT,
  matches: number = SESSION_CONTEXT_MATCHES,
): SessionContext {
  const merged = new Map(ranks);
  const neighboursOnly = new Set<number>();
  if (weight <= 0 || matches < 1 || !ranks.size) return { ranks: merged, neighboursOnly };
  const strongest = [...ranks].filter(([, rank]) => rank < 0).sort((a, b) => a[1] - b[1] || a[0] - b[0]).slice(0, matches);
  if (!strongest.length) return { ranks: merged, neighboursOnly };
  const around = neighbours(strongest.map(([rowid]) => rowid));
  const shares = new Map<number, number>();
  for (const [rowid, rank] of strongest) {
    for (const other of around.get(rowid) ?? []) shares.set(other, Math.min(shares.get(other) ?? 0, weight * rank));
  }
  shares.forEach((share, rowid) => {
    const own = ranks.get(rowid);
    if (own === undefined || own === 0) neighboursOnly.add(rowid);
    merged.set(rowid, (own ?? 0) + share);
  });
  return { ranks: merged, neighboursOnly };
}
