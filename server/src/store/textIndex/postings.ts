/** One index term's postings as recall reads them (recall/indexTextSearch.ts). */
export interface PostingList {
  /** Memories with the term. */
  readonly count: number;
  /** Their rowids ascending (the first `count` entries), each with its weighted frequency in `freqs`. */
  readonly rowids: Int32Array;
  readonly freqs: Uint16Array;
  has(rowid: number): boolean;
  /** What data derived from the list (bitsets.ts) is kept under, and a number that moves when the list changes. */
  readonly key: unknown;
  readonly version: number;
}

/**
 * The memories one index term occurs in: rowids ascending, each with its weighted frequency
 * (occurrences × the column's bm25 weight, summed over columns, as FTS5's bm25 counts them).
 * Typed arrays, 6 bytes a posting, that grow as memories are added: a build's lists and the
 * changes since (textIndex.ts), before they are packed.
 */
export class Postings implements PostingList {
  rowids: Int32Array;
  freqs: Uint16Array;
  count = 0;
  /** Moves at every change: what is derived from the list (bitsets.ts) knows when to rebuild. */
  version = 0;

  constructor(capacity = 2) {
    this.rowids = new Int32Array(capacity);
    this.freqs = new Uint16Array(capacity);
  }

  get key(): Postings {
    return this;
  }

  /** Adds a memory (or sets its frequency); the newest rowid goes at the end in constant time. */
  add(rowid: number, freq: number): void {
    const clamped = Math.min(freq, 0xffff);
    const n = this.count;
    this.version++;
    if (n === 0 || this.rowids[n - 1]! < rowid) {
      this.grow(n + 1);
      this.rowids[n] = rowid;
      this.freqs[n] = clamped;
      this.count = n + 1;
      return;
    }
    const at = this.lowerBound(rowid);
    if (at < n && this.rowids[at] === rowid) {
      this.freqs[at] = clamped;
      return;
    }
    this.grow(n + 1);
    this.rowids.copyWithin(at + 1, at, n);
    this.freqs.copyWithin(at + 1, at, n);
    this.rowids[at] = rowid;
    this.freqs[at] = clamped;
    this.count = n + 1;
  }

  remove(rowid: number): boolean {
    const at = this.indexOf(rowid);
    if (at < 0) return false;
    this.version++;
    this.rowids.copyWithin(at, at + 1, this.count);
    this.freqs.copyWithin(at, at + 1, this.count);
    this.count--;
    return true;
  }

  /** Position of `rowid`, or -1. */
  indexOf(rowid: number): number {
    const at = this.lowerBound(rowid);
    return at < this.count && this.rowids[at] === rowid ? at : -1;
  }

  has(rowid: number): boolean {
    return this.indexOf(rowid) >= 0;
  }

  /** Drops spare capacity (after a build, where arrays grew by doubling). */
  trim(): void {
    if (this.rowids.length === this.count) return;
    this.rowids = this.rowids.slice(0, this.count);
    this.freqs = this.freqs.slice(0, this.count);
  }

  /** First position whose rowid is ≥ `rowid`. */
  private lowerBound(rowid: number): number {
    let low = 0;
    let high = this.count;
    const rowids = this.rowids;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (rowids[mid]! < rowid) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private grow(needed: number): void {
    if (needed <= this.rowids.length) return;
    const capacity = Math.max(needed, this.rowids.length * 2);
    const rowids = new Int32Array(capacity);
    rowids.set(this.rowids.subarray(0, this.count));
    const freqs = new Uint16Array(capacity);
    freqs.set(this.freqs.subarray(0, this.count));
    this.rowids = rowids;
    this.freqs = freqs;
  }
}
