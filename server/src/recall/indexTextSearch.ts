import type { Postings } from '../store/textIndex/postings';
import type { TextIndex } from '../store/textIndex/textIndex';
import { COVERAGE, FILL_TERMS, inverseDocumentFrequency, planTextSearch, type TextMatches } from './textSearch';

// FTS5's bm25 constants (fts5_aux.c).
const K1 = 1.2;
const B = 0.75;

/** A query word as the index knows it: the postings of each index term it makes. */
interface IndexedTerm {
  readonly term: string;
  /** Empty when the tokenizer makes nothing of the word, or some term of it is in no memory. */
  readonly postings: readonly Postings[];
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
    const postings: Postings[] = [];
    for (const stem of stems[i]!) {
      const p = index.postings(stem);
      if (!p) return { term, postings: [], phrase: stems[i]!.length > 1 };
      postings.push(p);
    }
    return { term, postings, phrase: stems[i]!.length > 1 };
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
        const others = new Map(rowids.map((rowid) => [rowid, 0]));
        scoreCoverage(others, indexed, plan.idf);
        for (const [rowid, rank] of others) if (rank >= 0) others.delete(rowid);
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
  const scores = new Map<number, number>();
  const rows = index.rows;
  const averageLength = index.averageLength;
  for (const term of ranked) {
    const postings = term.postings[0];
    if (!postings) continue;
    const idf = inverseDocumentFrequency(rows, postings.count);
    const { rowids, freqs, count } = postings;
    for (let i = 0; i < count; i++) {
      const rowid = rowids[i]!;
      const f = freqs[i]!;
      const part = idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * index.length(rowid)) / averageLength)));
      scores.set(rowid, (scores.get(rowid) ?? 0) + part);
    }
  }
  const best = [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit);
  return new Map(best.map(([rowid, score]) => [rowid, -1 * score]));
}

/** Whether the memory has every index term of the word (a phrase's terms, not checked for order). */
function has(term: IndexedTerm, rowid: number): boolean {
  if (!term.postings.length) return false;
  for (const p of term.postings) if (!p.has(rowid)) return false;
  return true;
}

/**
 * The newest `want` memories (highest rowid) with every word, leaving out `skip`'s: the
 * postings walked from their ends together, each jumping to the next rowid all may share
 * (galloping), so an AND that few memories meet costs about its shortest list's length in jumps.
 */
function newestWithAll(terms: readonly IndexedTerm[], want: number, skip: ReadonlyMap<number, number>): number[] {
  // A word in no memory: no memory has them all.
  if (!terms.length || terms.some((t) => !t.postings.length)) return [];
  const lists = terms.flatMap((t) => t.postings).sort((a, b) => a.count - b.count);
  const cursors = lists.map((p) => p.count - 1);
  const found: number[] = [];
  let target = lists[0]!.rowids[cursors[0]!]!;
  while (found.length < want) {
    let agreed = true;
    for (let l = 0; l < lists.length; l++) {
      const at = seekAtOrBelow(lists[l]!, cursors[l]!, target);
      if (at < 0) return found;
      cursors[l] = at;
      const rowid = lists[l]!.rowids[at]!;
      if (rowid < target) {
        target = rowid;
        agreed = false;
        break;
      }
    }
    if (!agreed) continue;
    if (!skip.has(target)) found.push(target);
    target--;
  }
  return found;
}

/** Position of the largest rowid ≤ `target` at or before `from`, or -1; gallops backwards. */
function seekAtOrBelow(postings: Postings, from: number, target: number): number {
  const rowids = postings.rowids;
  if (from < 0) return -1;
  if (rowids[from]! <= target) return from;
  // rowids[from] > target: step back 1, 2, 4… until at or below, then search between.
  let high = from;
  let step = 1;
  let low = from - step;
  while (low >= 0 && rowids[low]! > target) {
    high = low;
    step *= 2;
    low = from - step;
  }
  if (low < 0) {
    if (rowids[0]! > target) return -1;
    low = 0;
  }
  // rowids[low] ≤ target < rowids[high]
  while (high - low > 1) {
    const mid = (low + high) >>> 1;
    if (rowids[mid]! <= target) low = mid;
    else high = mid;
  }
  return low;
}

/** The newest `want` memories with any of the words, leaving out `skip`'s. */
function newestWithAny(terms: readonly IndexedTerm[], want: number, skip: ReadonlyMap<number, number>): number[] {
  // A word of several index terms counts where the memory has them all, as in newestWithAll.
  const candidates = new Set<number>();
  for (const term of terms) {
    const shortest = term.postings.slice().sort((a, b) => a.count - b.count)[0];
    if (!shortest) continue;
    let taken = 0;
    for (let i = shortest.count - 1; i >= 0 && taken < want; i--) {
      const rowid = shortest.rowids[i]!;
      if (!skip.has(rowid) && has(term, rowid)) {
        candidates.add(rowid);
        taken++;
      }
    }
  }
  return [...candidates].sort((a, b) => b - a).slice(0, want);
}

/**
 * scoreCommonTermsAndCoverage (textSearch.ts) with the words looked up in the postings: the
 * candidates sorted once, each word's postings walked forward beside them.
 */
function scoreCoverage(ranks: Map<number, number>, terms: readonly IndexedTerm[], commonIdf: ReadonlyMap<string, number>): void {
  if (terms.length < 2 && !commonIdf.size) return;
  const rowids = Int32Array.from(ranks.keys()).sort();
  const found = new Uint8Array(rowids.length);
  const common = new Float64Array(rowids.length);
  for (const term of terms) {
    if (!term.postings.length) continue;
    const idf = commonIdf.get(term.term) ?? 0;
    const hasAll = containsEach(term.postings[0]!, rowids);
    for (let l = 1; l < term.postings.length; l++) {
      const also = containsEach(term.postings[l]!, rowids);
      for (let k = 0; k < hasAll.length; k++) hasAll[k]! &= also[k]!;
    }
    for (let k = 0; k < rowids.length; k++) {
      if (!hasAll[k]) continue;
      found[k]!++;
      common[k]! += idf;
    }
  }
  const scale = terms.length < 2 ? 0 : COVERAGE / terms.length;
  for (let k = 0; k < rowids.length; k++) {
    const rowid = rowids[k]!;
    ranks.set(rowid, (ranks.get(rowid)! - common[k]!) * (terms.length < 2 ? 1 : 1 + scale * found[k]!));
  }
}

/** Which of the (ascending) rowids the postings hold: 1 or 0 each. */
function containsEach(postings: Postings, rowids: Int32Array): Uint8Array {
  const result = new Uint8Array(rowids.length);
  const list = postings.rowids;
  const count = postings.count;
  let at = 0;
  for (let k = 0; k < rowids.length && at < count; k++) {
    const rowid = rowids[k]!;
    if (list[at]! < rowid) {
      // Gallop forward to the first posting ≥ rowid.
      let step = 1;
      let low = at;
      let high = at + 1;
      while (high < count && list[high]! < rowid) {
        low = high;
        step *= 2;
        high = at + step;
      }
      if (high > count) high = count;
      while (high - low > 1) {
        const mid = (low + high) >>> 1;
        if (list[mid]! < rowid) low = mid;
        else high = mid;
      }
      at = high;
    }
    if (at < count && list[at] === rowid) result[k] = 1;
  }
  return result;
}
