import type { MemoryStore } from '../store/memoryStore';
import type { TermFrequencies } from '../store/termStats';
import { ftsQueryOf, type TermOperator } from '../store/ftsQuery';
import { fillWord, wordPieces, WIDESPREAD_SHARE, type FillWord } from '../store/termMatchSets';
import { searchTextInIndex } from './indexTextSearch';
import { SESSION_CONTEXT_SPAN, withSessionContext } from './sessionContext';
import { isWordCharacter } from './terms';

/**
 * Postings FTS5 is asked to rank per query. bm25 costs about a microsecond per matching row and
 * must first walk each term's whole doclist to count it, so a query with a word found in 60,000
 * memories took 50–100 ms at 100,000 memories; ranking ~1,000 rows takes about one.
 */
export const RANKED_POSTINGS = 1000;

/** Common terms whose newest matches fill up the candidates when the ranked terms find too few. */
export const FILL_TERMS = 3;
/** How much a memory containing every query term gains over one containing a single term. */
export const COVERAGE = 2;
/** Coverage looks at this much of each candidate's text. */
const COVERAGE_TEXT_CHARS = 4000;

export interface TextSearchPlan {
  /** Terms FTS5 ranks with bm25: the rarest, while their postings fit the budget. */
  readonly ranked: readonly string[];
  /** The rest, each with the inverse document frequency it adds to a memory containing it. */
  readonly common: readonly { readonly term: string; readonly idf: number }[];
  /** Every term's inverse document frequency (empty without counts). */
  readonly idf: ReadonlyMap<string, number>;
}

export interface TextMatches {
  /** Full-text candidates and their ranks (negative; lower is better). */
  readonly ranks: ReadonlyMap<number, number>;
  /**
   * Ranks other memories by the words they contain (IDF, coverage), for candidates found another
   * way (the file, an open file, the symbol): with common words left out of the search, a
   * memory of the file that has them all may not be among the matches. Null when every word was
   * searched.
   */
  readonly rankOthers: ((rowids: readonly number[]) => Map<number, number>) | null;
  /** Memories in `ranks` only for being recorded next to a match in the same session (sessionContext.ts). */
  readonly neighboursOnly?: ReadonlySet<number>;
}

/** FTS5's bm25 IDF: ln((N − n + 0.5) / (n + 0.5)), floored near zero as FTS5 floors it. */
export function inverseDocumentFrequency(rows: number, docs: number): number {
  const idf = Math.log((rows - docs + 0.5) / (docs + 0.5));
  return Number.isFinite(idf) && idf > 1e-6 ? idf : 1e-6;
}

/**
 * Which terms to rank in FTS5 and which to score here (MaxScore-style: a term found in thousands
 * of memories adds little to any score, so it need not choose the candidates). Without counts
 * every term is ranked, as in a small store.
 */
export function planTextSearch(terms: readonly string[], docsOf: (term: string) => number, rows: number | null, budget: number = RANKED_POSTINGS): TextSearchPlan {
  if (rows === null) return { ranked: terms, common: [], idf: new Map() };
  const byRarity = terms.map((term) => ({ term, docs: docsOf(term) })).sort((a, b) => a.docs - b.docs);
  const ranked: string[] = [];
  let postings = 0;
  for (const { term, docs } of byRarity) {
    if (postings + docs > budget) break;
    ranked.push(term);
    postings += docs;
  }
  const common = byRarity.slice(ranked.length).map(({ term, docs }) => ({ term, idf: inverseDocumentFrequency(rows, docs) }));
  return { ranked, common, idf: new Map(byRarity.map(({ term, docs }) => [term, inverseDocumentFrequency(rows, docs)])) };
}

/** A term found at a word start, loosely stemmed (`connections` finds `connection`), as porter stems the index. */
function containsTerm(text: string, term: string): boolean {
  const stem = term.length > 5 ? term.slice(0, Math.max(4, term.length - 3)) : term;
  let at = text.indexOf(stem);
  while (at >= 0) {
    if (at === 0 || !isWordCharacter(text[at - 1]!)) return true;
    at = text.indexOf(stem, at + 1);
  }
  return false;
}

/**
 * The documents-per-word lookup of a store's term counts (a word's rarest index term; 0 when
 * uncounted), and each word as recall's fills ask for it (store/termMatchSets.ts).
 */
function docsLookup(store: MemoryStore, terms: readonly string[]): { rows: number | null; docsOf: (term: string) => number; fillWordOf: (term: string) => FillWord } {
  const stats = store.termStats;
  const pieces = terms.map(wordPieces);
  const stemmed = stats.stems([...terms, ...pieces.flat()]);
  const stems = stemmed.slice(0, terms.length);
  const frequencies: TermFrequencies | null = stats.frequencies(stems.flat());
  const rows = frequencies?.rows ?? null;
  // A word the tokenizer makes nothing of (`__`) matches nothing: as rare as can be.
  const docsOfTerms = (indexTerms: readonly string[]) => (frequencies && indexTerms.length ? Math.min(...indexTerms.map((s) => frequencies.docs.get(s) ?? 0)) : 0);
  const widespread = (indexTerms: readonly string[]) => rows !== null && docsOfTerms(indexTerms) * WIDESPREAD_SHARE >= rows;
  const byTerm = new Map(terms.map((term, i) => [term, i]));
  let next = terms.length;
  const pieceTerms = pieces.map((p) => stemmed.slice(next, (next += p.length)));
  return {
    rows,
    docsOf: (term) => docsOfTerms(stems[byTerm.get(term)!]!),
    fillWordOf: (term) => {
      const i = byTerm.get(term)!;
      return fillWord(term, stems[i]!, pieces[i]!, pieceTerms[i]!, widespread);
    },
  };
}

/**
 * Full-text candidates of a query's terms with their ranks (negative; lower is better), and the
 * memories recorded next to the strongest of them in the same session (sessionContext.ts).
 */
export function searchText(store: MemoryStore, terms: readonly string[], limit: number, budget: number = RANKED_POSTINGS): TextMatches {
  const found = matchText(store, terms, limit, budget);
  // The reply after a question that matched, the change after a prompt that matched.
  const context = withSessionContext(found.ranks, (rowids) => store.reads.sessionNeighbours(rowids, SESSION_CONTEXT_SPAN));
  return { ranks: context.ranks, rankOthers: found.rankOthers, neighboursOnly: context.neighboursOnly };
}

/**
 * Full-text candidates of a query's terms with their ranks (negative; lower is better): bm25 of
 * the ranked terms, less the IDF of each common term a candidate contains, scaled by coverage.
 * When the ranked terms find fewer than `limit` memories, the newest memories with every common
 * term (then the rarest few, then any of those) fill up the candidates; they rank by their
 * common terms alone.
 */
function matchText(store: MemoryStore, terms: readonly string[], limit: number, budget: number): TextMatches {
  const ranks = new Map<number, number>();
  if (!terms.length) return { ranks, rankOthers: null };
  // The memory server's in-memory index, when it has one ready: the same search without SQLite.
  const index = store.reads.textIndex();
  const inIndex = index && searchTextInIndex(index, terms, index.termsOf(terms), limit, budget);
  if (inIndex) return inIndex;
  const { rows, docsOf, fillWordOf } = docsLookup(store, terms);
  const plan = planTextSearch(terms, docsOf, rows, budget);
  if (plan.ranked.length) for (const hit of store.reads.searchRowids(ftsQueryOf(plan.ranked, 'OR'), limit)) ranks.set(hit.rowid, hit.rank);
  // Memories with every common word first (the ones bm25 would rank high), then with the rarest
  // few, then with any of those: each newest first, FTS5 reading doclists from their ends. An
  // AND of many words meets few matches per page read, so only the first step takes them all.
  const common = plan.common.map((c) => fillWordOf(c.term));
  const rarest = common.slice(0, FILL_TERMS);
  const fills: { readonly words: readonly FillWord[]; readonly operator: TermOperator }[] = [
    ...(common.length > 1 ? [{ words: common, operator: 'AND' as const }] : []),
    ...(rarest.length && rarest.length < common.length ? [{ words: rarest, operator: 'AND' as const }] : []),
    ...(rarest.length ? [{ words: rarest, operator: 'OR' as const }] : []),
  ];
  for (const fill of fills) {
    if (ranks.size >= limit) break;
    for (const rowid of store.reads.newestTextMatches(fill.words, fill.operator, limit - ranks.size)) if (!ranks.has(rowid)) ranks.set(rowid, 0);
  }
  if (ranks.size) scoreCommonTermsAndCoverage(store, ranks, terms, new Map(plan.common.map((c) => [c.term, c.idf])));
  const rankOthers = plan.common.length
    ? (rowids: readonly number[]) => {
        const others = new Map(rowids.map((rowid) => [rowid, 0]));
        scoreCommonTermsAndCoverage(store, others, terms, plan.idf);
        // Only memories with at least one of the words are text matches.
        for (const [rowid, rank] of others) if (rank >= 0) others.delete(rowid);
        return others;
      }
    : null;
  return { ranks, rankOthers };
}

/**
 * Coordination (Lucene's classic `coord`): bm25 sums per-term scores, so one rare word can
 * outrank a memory that has most of what was asked. Each match's rank, with the IDF of the common
 * terms it contains taken off, is scaled by 1 + COVERAGE × (share of the query terms it contains).
 * Measured: docs/recall-quality.md.
 */
function scoreCommonTermsAndCoverage(store: MemoryStore, ranks: Map<number, number>, terms: readonly string[], commonIdf: ReadonlyMap<string, number>): void {
  if (terms.length < 2 && !commonIdf.size) return;
  const texts = store.reads.lowercaseTexts([...ranks.keys()], COVERAGE_TEXT_CHARS);
  for (const [rowid, rank] of ranks) {
    const text = texts.get(rowid) ?? '';
    let found = 0;
    let common = 0;
    for (const term of terms) {
      if (!containsTerm(text, term)) continue;
      found++;
      common += commonIdf.get(term) ?? 0;
    }
    ranks.set(rowid, (rank - common) * (terms.length < 2 ? 1 : 1 + (COVERAGE * found) / terms.length));
  }
}
