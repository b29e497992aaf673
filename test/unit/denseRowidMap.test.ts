import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DenseRowidMap } from '../../server/src/store/denseRowidMap';

describe('values by rowid in an array', () => {
  it('keeps, replaces, forgets and clears values as a Map would, for small, large and odd rowids', () => {
    const dense = new DenseRowidMap<string>();
    const map = new Map<number, string>();
    const rowids = [1, 2, 7, 100_000, 3, 1 << 24, (1 << 24) + 5, 2 ** 40, -1, 0];
    let n = 0;
    for (const rowid of rowids) {
      dense.set(rowid, `v${n}`);
      map.set(rowid, `v${n++}`);
    }
    dense.set(7, 'again');
    map.set(7, 'again');
    for (const rowid of [2, 1 << 24, 99]) {
      dense.delete(rowid);
      map.delete(rowid);
    }
    for (const rowid of [...rowids, 4, 99, 100_001, 5_000_000]) assert.equal(dense.get(rowid), map.get(rowid), `rowid ${rowid}`);
    dense.clear();
    for (const rowid of rowids) assert.equal(dense.get(rowid), undefined);
  });
});
