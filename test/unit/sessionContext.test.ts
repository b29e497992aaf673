import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { recall } from '../../server/src/recall/recall';
import { withSessionContext } from '../../server/src/recall/sessionContext';
import { openDatabase } from '../../server/src/store/database';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { tempDir } from '../support/tempDirs';

function freshStore(options: { resident?: boolean } = {}): MemoryStore {
  const { db } = openDatabase(path.join(tempDir(), 'memory.db'));
  return new MemoryStore(db, undefined, options);
}

/** Neighbours from a fixed table, recording which rowids were asked about. */
function table(lists: Record<number, number[]>, asked: number[][] = []) {
  return (rowids: readonly number[]) => {
    asked.push([...rowids]);
    return new Map(rowids.filter((r) => lists[r]).map((r) => [r, lists[r]!]));
  };
}

describe('session context', () => {
  it('gives a match’s neighbours a share of its rank, on top of their own', () => {
    const { ranks, neighboursOnly } = withSessionContext(new Map([[10, -8], [11, -2]]), table({ 10: [9, 11] }), 0.5, 10);
    assert.equal(ranks.get(9), -4, 'a neighbour with no match of its own gets half the rank');
    assert.equal(ranks.get(11), -6, 'a neighbour that matched adds the share to its own rank');
    assert.equal(ranks.get(10), -8, 'the match itself is unchanged');
    assert.deepEqual([...neighboursOnly], [9]);
  });

  it('takes the better of two matches’ shares for a memory between them, not both', () => {
    const { ranks } = withSessionContext(new Map([[1, -10], [3, -4]]), table({ 1: [2], 3: [2] }), 0.5, 10);
    assert.equal(ranks.get(2), -5);
  });

  it('asks only about the strongest matches, and leaves ranks alone without neighbours', () => {
    const asked: number[][] = [];
    const input = new Map([[1, -1], [2, -9], [3, -5], [4, 0]]);
    const { ranks, neighboursOnly } = withSessionContext(input, table({}, asked), 0.4, 2);
    assert.deepEqual(asked, [[2, 3]], 'the two best, best first; a memory with no matching word lends nothing');
    assert.deepEqual([...ranks], [...input]);
    assert.equal(neighboursOnly.size, 0);
  });

  it('does nothing at weight 0', () => {
    const asked: number[][] = [];
    withSessionContext(new Map([[1, -3]]), table({ 1: [2] }, asked), 0, 10);
    assert.deepEqual(asked, []);
  });
});

describe('session neighbours in the store', () => {
  it('lists the memories recorded just before and after one in its own session only', () => {
    const store = freshStore();
    const add = (title: string, sessionId: string | null) => store.add({ kind: 'note', title, body: title, source: 'user', sessionId }).id;
    const titles = ['a0', 'a1', 'b0', 'a2', 'a3', 'a4', 'a5', 'loose'];
    titles.forEach((title) => add(title, title === 'loose' ? null : title[0]!.toUpperCase()));
    const rowids = store.reads.rowidsRecent(100);
    const rowidOf = new Map(store.reads.byRowids(rowids).map((m, i) => [m.title, rowids[i]!]));
    const of = (...names: string[]) => names.map((n) => rowidOf.get(n)!).sort((x, y) => x - y);
    const found = store.reads.sessionNeighbours(of('a3', 'a0', 'loose'), 2);
    assert.deepEqual([...found.get(rowidOf.get('a3')!)!].sort((x, y) => x - y), of('a1', 'a2', 'a4', 'a5'));
    assert.deepEqual([...found.get(rowidOf.get('a0')!)!].sort((x, y) => x - y), of('a1', 'a2'), 'the first has only followers, and the other session is skipped');
    assert.equal(found.has(rowidOf.get('loose')!), false, 'a memory with no session has no neighbours');
    assert.equal(store.reads.sessionNeighbours(of('a3'), 0).size, 0);
  });
});

describe('recall with session context', () => {
  for (const resident of [false, true]) {
    it(`finds the reply recorded after a matching question and says why${resident ? ' (in-memory text index)' : ''}`, async () => {
      const store = freshStore({ resident });
      const say = (text: string, sessionId: string, at: number) => store.add({ kind: 'fact', title: text, body: text, source: 'user', sessionId }, at);
      say('Melanie: What did you paint last weekend?', 's1', 1_000);
      const reply = say('Caroline: A sunset over the lake, with my kids watching.', 's1', 2_000);
      say('Melanie: Sounds lovely. How is the new job going?', 's1', 3_000);
      const elsewhere = say('Caroline: The job is fine, long hours though.', 's2', 4_000);
      if (resident) await store.reads.buildTextIndex();
      const results = recall(store, { query: 'What did Melanie paint?', limit: 10 }, { now: 5_000 });
      const found = results.find((r) => r.memory.id === reply.id);
      assert.ok(found, 'the reply shares no word with the question but follows the turn that matched');
      assert.equal(found.explanation[0]!.reason, 'next to a match in the same session');
      assert.equal(results.some((r) => r.memory.id === elsewhere.id), false, 'another session lends nothing');
    });
  }
});
