import type { PostingList } from './postings';

/** What a TermPostings decodes its list from (TextIndex). */
export interface PostingSource {
  /** The term's postings, `count` of them, as arrays of their own. */
  decode(id: number, count: number): { readonly rowids: Int32Array; readonly freqs: Uint16Array };
}

/**
 * One term's postings as one query reads them: its count from the index's counts, its rowids and
 * frequencies decoded from the packed lists when first read (a query ranks the rare words, ~1,000
 * postings at most, and reads common words through their bitsets: bitsets.ts).
 */
export class TermPostings implements PostingList {
  private decoded: { readonly rowids: Int32Array; readonly freqs: Uint16Array } | null = null;

  constructor(
    private readonly source: PostingSource,
    /** The term's id in its index. */
    readonly key: number,
    readonly count: number,
    readonly version: number,
  ) {}

  get rowids(): Int32Array {
    return (this.decoded ??= this.source.decode(this.key, this.count)).rowids;
  }

  get freqs(): Uint16Array {
    return (this.decoded ??= this.source.decode(this.key, this.count)).freqs;
  }

  has(rowid: number): boolean {
    const rowids = this.rowids;
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (rowids[mid]! < rowid) low = mid + 1;
      else high = mid;
    }
    return low < this.count && rowids[low] === rowid;
  }
}

/**
 * Decodes a term's packed postings (`bytes[from, to)`: rowid gap and frequency, varints) into
 * `rowids` and `freqs` from `at`, leaving out the rowids in `skip`; returns where they end.
 */
export function decodePostings(bytes: Uint8Array, from: number, to: number, rowids: Int32Array, freqs: Uint16Array, at: number, skip: ReadonlySet<number> | null): number {
  let p = from;
  let n = at;
  let rowid = 0;
  while (p < to) {
    let byte = bytes[p++]!;
    let gap = byte & 0x7f;
    for (let shift = 7; byte & 0x80; shift += 7) {
      byte = bytes[p++]!;
      gap |= (byte & 0x7f) << shift;
    }
    byte = bytes[p++]!;
    let freq = byte & 0x7f;
    for (let shift = 7; byte & 0x80; shift += 7) {
      byte = bytes[p++]!;
      freq |= (byte & 0x7f) << shift;
    }
    rowid += gap;
    if (skip && skip.has(rowid)) continue;
    rowids[n] = rowid;
    freqs[n] = freq;
    n++;
  }
  return n;
}
