import { identifierParts } from '../../server/src/memory/identifierParts';

/**
 * The recall changes docs/recall-quality.md recommends, written the way they would go into
 * server/src/recall/terms.ts and recall.ts, so what was measured is what gets ported. The LoCoMo
 * variants (variants.ts) call these functions.
 */

/**
 * English function words that say nothing about a topic: articles, auxiliaries, pronouns,
 * question words, modals, a few prepositions, and the stubs contractions leave (`don't` → `don`).
 * Deliberately short: words that mean something in code (`if`, `for`, `while`, `in`, `on`,
 * `not`, `no`, `all`, `new`, `this`, `return`, `null`, `true`, `default`, `type`…) are kept, so a
 * question about `if` statements or `not null` still searches for them.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a an the and or but nor of to at by with from as about into
  is are was were be been being am do does did doing have has had having
  i me my mine you your yours he him his she her hers it its we us our ours they them their theirs that these those
  what which who whom whose when where why how can could would should will shall might must just so than then there here
  don didn doesn isn aren wasn weren hasn haven hadn won wouldn couldn shouldn ll ve re`
    .split(/\s+/)
    .filter(Boolean),
);

const MAX_TERMS = 64;

/**
 * The words of a text worth searching for: lowercased, at least two characters (or a digit),
 * identifier parts added (`parseConfig` → `parse`, `config`), stop words left out — unless
 * nothing else is left, so `"what is this"` still finds something.
 */
export function queryTerms(text: string): string[] {
  const all = new Set<string>();
  const content = new Set<string>();
  for (const word of text.match(/[\p{L}\p{N}_]+/gu) ?? []) {
    // Split before lowercasing: the case boundaries are what mark `parseConfig`'s parts.
    const candidates = [...(word.length > 1 || /\d/.test(word) ? [word.toLowerCase()] : []), ...identifierParts(word)];
    for (const candidate of candidates) {
      all.add(candidate);
      if (!STOP_WORDS.has(candidate)) content.add(candidate);
    }
    if (content.size >= MAX_TERMS) break;
  }
  return [...(content.size ? content : all)].slice(0, MAX_TERMS);
}

/** One term as a safe FTS5 string (porter still stems it). */
export function ftsTerm(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** Replacement for terms.ts's toFtsQuery: the same OR query, without the stop words. */
export function toFtsQuery(text: string): string | null {
  const terms = queryTerms(text);
  return terms.length ? terms.map(ftsTerm).join(' OR ') : null;
}

/** How much a memory containing every query term gains over one containing a single term. */
export const COVERAGE = 2;

/**
 * Coordination (Lucene's classic `coord`): bm25 sums per-term scores, so one rare word can
 * outrank a memory that has most of what was asked. Scales each candidate's bm25 rank by
 * 1 + COVERAGE × (share of the query terms it contains). `matching(term, rowids)` says which
 * candidates contain a term — in the store, one small FTS query per term:
 *   SELECT rowid FROM memory_fts WHERE memory_fts MATCH @term AND rowid IN (SELECT value FROM json_each(@rowids))
 */
export function withCoverage(
  ranks: ReadonlyMap<number, number>,
  terms: readonly string[],
  matching: (ftsTerm: string, rowids: readonly number[]) => ReadonlySet<number>,
  coverage: number = COVERAGE,
): Map<number, number> {
  if (terms.length < 2 || ranks.size === 0) return new Map(ranks);
  const rowids = [...ranks.keys()];
  const counts = new Map<number, number>();
  for (const term of terms) for (const rowid of matching(ftsTerm(term), rowids)) counts.set(rowid, (counts.get(rowid) ?? 0) + 1);
  const scaled = new Map<number, number>();
  for (const [rowid, rank] of ranks) scaled.set(rowid, rank * (1 + (coverage * (counts.get(rowid) ?? 0)) / terms.length));
  return scaled;
}

/**
 * Session context (optional, see the doc): a memory recorded right before or after a text match
 * in the same session shares some of its score (`weight` × the neighbour's bm25), so the reply
 * to a matching question, or the change after a matching prompt, is found too.
 * `neighbours(rowid)` gives the rowids of the `span` memories before and after it in its session.
 */
export function withSessionContext(
  ranks: ReadonlyMap<number, number>,
  neighbours: (rowid: number) => readonly number[],
  weight: number,
): Map<number, number> {
  const merged = new Map(ranks);
  for (const [rowid, rank] of ranks) {
    for (const other of neighbours(rowid)) {
      // The best neighbour counts, not the sum: a memory between two matches is not doubled.
      merged.set(other, Math.min(merged.get(other) ?? 0, (ranks.get(other) ?? 0) + weight * rank));
    }
  }
  return merged;
}
