/** Values by rowid, as a resident store keeps one per memory. */
export interface RowidMap<V> {
  get(rowid: number): V | undefined;
  set(rowid: number, value: V): void;
  delete(rowid: number): void;
  clear(): void;
}

/** Rowids above this go to a Map: an array that long would be mostly holes. */
const MAX_DENSE_ROWID = 1 << 24;

/**
 * Every memory's value in an array indexed by rowid: rowids are small and dense, and a recall
 * looks up hundreds of candidates, each a cache miss in a 100,000-entry Map (~60 µs a recall)
 * and one load here.
 */
export class DenseRowidMap<V> implements RowidMap<V> {
  private values: (V | undefined)[] = [];
  private readonly sparse = new Map<number, V>();

  get(rowid: number): V | undefined {
    // Never read past the end: V8 deoptimized recall (~900 times in 2,000 recalls) on such reads.
    const values = this.values;
    return rowid >= 0 && rowid < values.length ? values[rowid] : this.sparse.get(rowid);
  }

  set(rowid: number, value: V): void {
    if (!(Number.isInteger(rowid) && rowid >= 0 && rowid < MAX_DENSE_ROWID)) {
      this.sparse.set(rowid, value);
      return;
    }
    // Filled with undefined rather than left with holes, so the array stays packed and fast.
    while (this.values.length < rowid) this.values.push(undefined);
    this.values[rowid] = value;
  }

  delete(rowid: number): void {
    if (rowid >= 0 && rowid < this.values.length) this.values[rowid] = undefined;
    else this.sparse.delete(rowid);
  }

  clear(): void {
    this.values = [];
    this.sparse.clear();
  }
}
