import { loadLocomo } from './data';
import { engramRecall, evaluateMany, type LocomoResult, type LocomoRetriever } from './evaluate';
import { variantRetriever, type Variant } from './variants';

/**
 * The study behind docs/recall-quality.md: recall() as it is, replicas of recall v1 and v2, the
 * reference method and each candidate change, on the same stored conversations. `clock: 'session'` (memories dated by
 * their session, questions asked a day after the last one) is how Engram would really hold them;
 * `'same'` stores everything at one instant, so only text relevance ranks.
 */

/** Recall v1's scoring (39f23a6), verified to rank exactly like that recall(). */
export const V1: Variant = {};

/** Recall v2's scoring (fd6a754), verified to rank exactly like that recall(): text = 3·rank/best, recency a prior that scales it (half-life 14 d, ≈ 1/6.35 of the priors). */
export const V2: Variant = { text: 'relative', recencyMode: 'multiply', recency: 1 / 6.35, recencyDays: 14 / Math.LN2, pool: 100 };

/** The recommendation: stop words and coordination on top of either scoring. */
export const PROPOSAL: Variant = { ...V2, stop: 'small', coverage: 2 };

export interface StudyRow {
  readonly group: string;
  readonly name: string;
  readonly variant: Variant | 'recall()';
  readonly dateInBody?: boolean;
}

export const STUDY: readonly StudyRow[] = [
  { group: 'reference', name: 'recall() in this checkout', variant: 'recall()' },
  { group: 'reference', name: 'recall v1 (replica)', variant: V1 },
  { group: 'reference', name: 'SOURCES.md method: NLTK stop words, body only, bm25', variant: { stop: 'nltk', weights: [0, 1, 0, 0], text: 'bm25', recency: 0 } },
  { group: 'scoring', name: 'v1 query, bm25 order only (no recency)', variant: { text: 'bm25', recency: 0 } },
  { group: 'scoring', name: 'v1 query, relative text + recency 1 (added)', variant: { text: 'relative', recency: 1 } },
  { group: 'scoring', name: 'v1 query, relative text + recency 0.3 (added)', variant: { text: 'relative', recency: 0.3 } },
  { group: 'scoring', name: 'recall v2 (replica): relative text, recency scales it', variant: V2 },
  { group: 'query', name: 'v2 + stop words (98, code words kept)', variant: { ...V2, stop: 'small' } },
  { group: 'query', name: 'v2 + stop words (NLTK 179)', variant: { ...V2, stop: 'nltk' } },
  { group: 'query', name: 'v2 + stop + drop terms in > 20% of memories', variant: { ...V2, stop: 'small', maxDocShare: 0.2 } },
  { group: 'query', name: 'v2 + stop + prefix match (≥ 4 chars)', variant: { ...V2, stop: 'small', prefix: 4 } },
  { group: 'query', name: 'v2 + stop + phrases of adjacent words (0.5)', variant: { ...V2, stop: 'small', phrase: 0.5 } },
  { group: 'query', name: 'v2 + stop + PRF (top 3, 5 terms, 0.3)', variant: { ...V2, stop: 'small', prf: { docs: 3, terms: 5, weight: 0.3 } } },
  { group: 'coverage', name: 'v2 + stop + coverage 1', variant: { ...V2, stop: 'small', coverage: 1 } },
  { group: 'coverage', name: 'PROPOSAL: v2 + stop + coverage 2', variant: PROPOSAL },
  { group: 'coverage', name: 'v2 + stop + coverage 4', variant: { ...V2, stop: 'small', coverage: 4 } },
  { group: 'coverage', name: 'PROPOSAL on v1-style scoring (relative, recency 0.3 added)', variant: { text: 'relative', recency: 0.3, stop: 'small', coverage: 2 } },
  { group: 'coverage', name: 'PROPOSAL + prefix (≥ 4 chars)', variant: { ...PROPOSAL, prefix: 4 } },
  { group: 'coverage', name: 'PROPOSAL + PRF (top 3, 5 terms, 0.3)', variant: { ...PROPOSAL, prf: { docs: 3, terms: 5, weight: 0.3 } } },
  { group: 'coverage', name: 'PROPOSAL, bm25 weights 1,1,1,1', variant: { ...PROPOSAL, weights: [1, 1, 1, 1] } },
  { group: 'coverage', name: 'PROPOSAL, bm25 weights 0,1,0,0 (body only)', variant: { ...PROPOSAL, weights: [0, 1, 0, 0] } },
  { group: 'coverage', name: 'PROPOSAL, 50 candidates', variant: { ...PROPOSAL, pool: 50 } },
  { group: 'coverage', name: 'PROPOSAL, 200 candidates', variant: { ...PROPOSAL, pool: 200 } },
  { group: 'session context', name: 'PROPOSAL + neighbours ±1, weight 0.3', variant: { ...PROPOSAL, neighbors: { weight: 0.3, span: 1 } } },
  { group: 'session context', name: 'PROPOSAL + neighbours ±1, weight 0.5', variant: { ...PROPOSAL, neighbors: { weight: 0.5, span: 1 } } },
  { group: 'session context', name: 'PROPOSAL + neighbours ±2, weight 0.3', variant: { ...PROPOSAL, neighbors: { weight: 0.3, span: 2 } } },
  { group: 'stored text', name: 'recall v1, session date in the body', variant: V1, dateInBody: true },
  { group: 'stored text', name: 'PROPOSAL, session date in the body', variant: PROPOSAL, dateInBody: true },
];

export interface StudyResult {
  readonly row: StudyRow;
  /** Memories dated by session, questions asked after the last one. */
  readonly session: LocomoResult;
  /** Everything at one instant: text relevance alone. */
  readonly same: LocomoResult;
  /** Questions whose Recall@10 (session clock) went up / down against recall v2 (V2). */
  readonly better: number;
  readonly worse: number;
}

export async function runStudy(rows: readonly StudyRow[] = STUDY): Promise<StudyResult[]> {
  const conversations = loadLocomo();
  const results = new Map<StudyRow, { session?: LocomoResult; same?: LocomoResult }>();
  for (const dateInBody of [false, true]) {
    const subset = rows.filter((r) => Boolean(r.dateInBody) === dateInBody);
    if (!subset.length) continue;
    const retrievers: Record<string, LocomoRetriever> = {};
    subset.forEach((row, i) => (retrievers[String(i)] = row.variant === 'recall()' ? engramRecall : variantRetriever(row.variant)));
    for (const clock of ['session', 'same'] as const) {
      const scores = await evaluateMany({ clock, dateInBody, conversations, retrievers });
      subset.forEach((row, i) => results.set(row, { ...results.get(row), [clock]: scores[String(i)]! }));
    }
  }
  const reference = rows.find((r) => r.variant === V2 && !r.dateInBody);
  const baseline = reference ? results.get(reference)?.session?.perQuestion : undefined;
  return rows.map((row) => {
    const { session, same } = results.get(row)!;
    let better = 0;
    let worse = 0;
    session!.perQuestion.forEach((r, i) => {
      const b = baseline?.[i] ?? r;
      if (r > b) better++;
      else if (r < b) worse++;
    });
    return { row, session: session!, same: same!, better, worse };
  });
}
