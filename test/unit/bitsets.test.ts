import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Bitsets, hasBit } from '../../server/src/store/textIndex/bitsets';
import { Postings } from '../../server/src/store/textIndex/postings';

function postingsOf(rowids: readonly number[]): Postings {
  const postings = new Postings();
  for (const rowid of rowids) postings.add(rowid, 1);
  return postings;
}

describe('bitsets of postings', () => {
  it('answers membership as the postings do, and follows their changes', () => {
    const rowids = [1, 31, 32, 33, 63, 64, 1000, 4095];
    const postings = postingsOf(rowids);
    const bitsets = new Bitsets(1 << 20);
    let bits = bitsets.of(postings);
    for (let rowid = 0; rowid < 5000; rowid++) assert.equal(hasBit(bits, rowid), rowids.includes(rowid), `rowid ${rowid}`);
    assert.equal(bitsets.of(postings), bits, 'kept while the list is unchanged');
    postings.remove(32);
    postings.add(70_000, 2);
    bits = bitsets.of(postings);
    assert.equal(hasBit(bits, 32), false);
    assert.equal(hasBit(bits, 70_000), true);
    assert.equal(hasBit(bits, 1 << 30), false, 'beyond the highest rowid');
  });

  it('keeps within its byte budget, dropping the least recently used', () => {
    const lists = [0, 1, 2, 3].map((i) => postingsOf([i + 1, 32_000 + i]));
    // Each bitset is 1,001 words (4,004 bytes): room for two.
    const bitsets = new Bitsets(8_100);
    const first = bitsets.of(lists[0]!);
    bitsets.of(lists[1]!);
    assert.equal(bitsets.of(lists[0]!), first, 'used again: now the most recent');
    bitsets.of(lists[2]!);
    assert.equal(bitsets.size, 8_008);
    assert.equal(bitsets.of(lists[0]!), first, 'the second was dropped, not the first');
    assert.notEqual(bitsets.of(lists[1]!), null);
    assert.ok(bitsets.size <= 8_100);
  });
});
