import { BITSET_MIN_POSTINGS, forEachBitDescending, hasBit, newestInEvery } from '../store/textIndex/bitsets';
import type { PostingList } from '../store/textIndex/postings';
import { bestFirst } from '../util/bestFirst';
import type { TextIndex } from '../store/textIndex/textIndex';
import { COVERAGE, FILL_TERMS, inverseDocumentFrequency, planTextSearch, type TextMatches } from './textSearch';

// FTS5's bm25 constants (fts5_aux.c).
const K1 = 1.2;
const B = 0.75;

/** A query word as the index knows it: the postings of each index term it makes. */
interface IndexedTerm {
  readonly term: string;
  /** Empty when the tokenizer makes nothing of the word, or some term of it is in no memory. */
  readonly postings: readonly PostingList[];
  /** Bitsets of long postings (parallel to `postings`), for words checked in many memories. */
  bits: readonly (Uint32Array | null)[];
  /** The word's index terms: more than one (`decode_peer`) is an FTS5 phrase. */
  readonly phrase: boolean;
}

/**
 * searchText (textSearch.ts) over the memory server's in-memory index instead of FTS5: the same
 * plan, bm25 computed as FTS5 computes it, the fills and the word checks on postings. Null when
 * a ranked word is a phrase of several index terms (FTS5 matches those by position, which the
 * index does not keep): the caller asks FTS5.
 */
export function searchTextInIndex(index: TextIndex, terms: readonly string[], stems: readonly (readonly string[])[], limit: number, budget: number): TextMatches | null {
  const indexed: IndexedTerm[] = terms.map((term, i) => {
    const postings: PostingList[] = [];
    for (const stem of stems[i]!) {
      const p = index.postings(stem);
      if (!p) return { term, postings: [], bits: [], phrase: stems[i]!.length > 1 };
      postings.push(p);
    }
    return { term, postings, bits: [], phrase: stems[i]!.length > 1 };
  });
  const byTerm = new Map(indexed.map((t) => [t.term, t]));
  const docsOf = (term: string) => {
    const postings = byTerm.get(term)!.postings;
    let docs = postings.length ? Infinity : 0;
    for (const p of postings) docs = Math.min(docs, p.count);
    return docs;
  };
  const plan = planTextSearch(terms, docsOf, index.rows, budget);
  const ranked = plan.ranked.map((term) => byTerm.get(term)!);
  if (ranked.some((t) => t.phrase && t.postings.length)) return null;

  const ranks = bm25(index, ranked, limit);
  const common = plan.common.map((c) => byTerm.get(c.term)!);
  for (const term of common) term.bits = term.postings.map((p) => (p.count >= BITSET_MIN_POSTINGS ? index.bitsets.of(p) : null));
  const rarest = common.slice(0, FILL_TERMS);
  const fills: ((want: number, skip: ReadonlyMap<number, number>) => number[])[] = [
    ...(common.length > 1 ? [(want: number, skip: ReadonlyMap<number, number>) => newestWithAll(common, want, skip)] : []),
    ...(rarest.length && rarest.length < common.length ? [(want: number, skip: ReadonlyMap<number, number>) => newestWithAll(rarest, want, skip)] : []),
    ...(rarest.length ? [(want: number, skip: ReadonlyMap<number, number>) => newestWithAny(rarest, want, skip)] : []),
  ];
  for (const fill of fills) {
    if (ranks.size >= limit) break;
    for (const rowid of fill(limit - ranks.size, ranks)) ranks.set(rowid, 0);
  }
  const commonIdf = new Map(plan.common.map((c) => [c.term, c.idf]));
  if (ranks.size) scoreCoverage(ranks, indexed, commonIdf);
  const rankOthers = plan.common.length
    ? (rowids: readonly number[]) => {
        const others = new Map<number, number>();
        const coverage = new Coverage(indexed, plan.idf);
        for (const rowid of rowids) {
          // Only memories with at least one of the words are text matches.
          const rank = coverage.rank(rowid, 0);
          if (rank < 0) others.set(rowid, rank);
        }
        return others;
      }
    : null;
  return { ranks, rankOthers };
}

/**
 * FTS5's bm25 of an OR of single-term phrases, best `limit` first: per phrase, IDF (over the
 * rows matching it) × f·(k1+1) / (f + k1·(1 − b + b·D/avgdl)), f the column-weighted
 * frequency, summed in the query's order and negated.
 */
function bm25(index: TextIndex, ranked: readonly IndexedTerm[], limit: number): Map<number, number> {
  const lists = ranked.flatMap((term) => term.postings.slice(0, 1));
  const idfs = lists.map((postings) => inverseDocumentFrequency(index.rows, postings.count));
  const listRowids = lists.map((postings) => postings.rowids);
  const listFreqs = lists.map((postings) => postings.freqs);
  const averageLength = index.averageLength;
  let total = 0;
  for (const postings of lists) total += postings.count;
  // The lists merged by rowid into arrays (a Map of a thousand rows and its sorted copy were most
  // of what a recall allocated); each row's parts summed in the query's order, as FTS5 sums them.
  const rowids = new Int32Array(total);
  const scores = new Float64Array(total);
  const cursors = new Int32Array(lists.length);
  let n = 0;
  for (;;) {
    let rowid = Infinity;
    for (let l = 0; l < lists.length; l++) if (cursors[l]! < lists[l]!.count) rowid = Math.min(rowid, listRowids[l]![cursors[l]!]!);
    if (rowid === Infinity) break;
    const length = index.length(rowid);
    let score = 0;
    for (let l = 0; l < lists.length; l++) {
      const at = cursors[l]!;
      if (at >= lists[l]!.count || listRowids[l]![at] !== rowid) continue;
      const f = listFreqs[l]![at]!;
      score += idfs[l]! * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * length) / averageLength)));
      cursors[l] = at + 1;
    }
    rowids[n] = rowid;
    scores[n] = score;
    n++;
  }
  const best = new Map<number, number>();
  // Higher score first, then the lower rowid.
  const after = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && rowids[a]! > rowids[b]!);
  for (const i of bestFirst(n, limit, after)) best.set(rowids[i]!, -1 * scores[i]!);
  return best;
}

/** Whether the memory has every index term of the word (a phrase's terms, not checked for order). */
function has(term: IndexedTerm, rowid: number): boolean {
  if (!term.postings.length) return false;
  for (let l = 0; l < term.postings.length; l++) {
    const bits = term.bits[l];
    if (bits ? !hasBit(bits, rowid) : !term.postings[l]!.has(rowid)) return false;
  }
  return true;
}

/**
 * The newest `want` memories (highest rowid) with every word, leaving out `skip`'s. With a
 * bitset for each list, their words ANDed from the top, 32 memories a step; else the shortest
 * list walked from its end and each memory checked in the others.
 */
function newestWithAll(terms: readonly IndexedTerm[], want: number, skip: ReadonlyMap<number, number>): number[] {
  // A word in no memory: no memory has them all.
  if (!terms.length || terms.some((t) => !t.postings.length)) return [];
  const lists = terms.flatMap((t) => t.postings.map((postings, l) => ({ postings, bits: t.bits[l] ?? null }))).sort((a, b) => a.postings.count - b.postings.count);
  if (lists.every((l) => l.bits)) return newestInEvery(lists.map((l) => l.bits!), want, (rowid) => !skip.has(rowid));
  const found: number[] = [];
  const [shortest, ...others] = lists as [(typeof lists)[0], ...typeof lists];
  const rowids = shortest.postings.rowids;
  next: for (let i = shortest.postings.count - 1; i >= 0 && found.length < want; i--) {
    const rowid = rowids[i]!;
    for (const other of others) if (other.bits ? !hasBit(other.bits, rowid) : !other.postings.has(rowid)) continue next;
    if (!skip.has(rowid)) found.push(rowid);
  }
  return found;
}

/**
 * The newest `want` memories with any of the words, leaving out `skip`'s: each word's shortest
 * list walked from its newest end, from its bitset when it has one (a long list is not decoded).
 */
function newestWithAny(terms: readonly IndexedTerm[], want: number, skip: ReadonlyMap<number, number>): number[] {
  // A word of several index terms counts where the memory has them all, as in newestWithAll.
  const candidates = new Set<number>();
  for (const term of terms) {
    if (!term.postings.length) continue;
    let s = 0;
    for (let l = 1; l < term.postings.length; l++) if (term.postings[l]!.count < term.postings[s]!.count) s = l;
    let taken = 0;
    const take = (rowid: number) => {
      if (skip.has(rowid) || !has(term, rowid)) return;
      candidates.add(rowid);
      taken++;
    };
    const bits = term.bits[s];
    if (bits) {
      forEachBitDescending(bits, (rowid) => {
        take(rowid);
        return taken < want;
      });
    } else {
      const rowids = term.postings[s]!.rowids;
      for (let i = term.postings[s]!.count - 1; i >= 0 && taken < want; i--) take(rowids[i]!);
    }
  }
  return [...candidates].sort((a, b) => b - a).slice(0, want);
}

/** scoreCommonTermsAndCoverage (textSearch.ts) with the words looked up in the postings. */
function scoreCoverage(ranks: Map<number, number>, terms: readonly IndexedTerm[], commonIdf: ReadonlyMap<string, number>): void {
  if (terms.length < 2 && !commonIdf.size) return;
  const coverage = new Coverage(terms, commonIdf);
  ranks.forEach((rank, rowid) => ranks.set(rowid, coverage.rank(rowid, rank)));
}

/** A rank less the IDF of the common words a memory has, scaled by the share of the query's words it has. */
class Coverage {
  private readonly present: readonly IndexedTerm[];
  private readonly idfs: readonly number[];
  private readonly scale: number;

  constructor(terms: readonly IndexedTerm[], commonIdf: ReadonlyMap<string, number>) {
    this.present = terms.filter((t) => t.postings.length);
    this.idfs = this.present.map((t) => commonIdf.get(t.term) ?? 0);
    this.scale = terms.length < 2 ? 0 : COVERAGE / terms.length;
  }

  rank(rowid: number, rank: number): number {
    let found = 0;
    let common = 0;
    for (let t = 0; t < this.present.length; t++) {
      if (!has(this.present[t]!, rowid)) continue;
      found++;
      common += this.idfs[t]!;
    }
    return (rank - common) * (1 + this.scale * found);
  }
}
