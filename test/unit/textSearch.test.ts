import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { recall } from '../../server/src/recall/recall';
import { inverseDocumentFrequency, planTextSearch, searchText } from '../../server/src/recall/textSearch';
import { openDatabase } from '../../server/src/store/database';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { TERM_STATS_MIN_ROWS } from '../../server/src/store/termStats';
import { tempDir } from '../support/tempDirs';

function freshStore(): MemoryStore {
  const { db } = openDatabase(path.join(tempDir(), 'memory.db'));
  return new MemoryStore(db);
}

/** `count` memories mentioning the connection pool, the first `rare` of which also mention the watchdog. */
function fill(store: MemoryStore, count: number, rare: number): string[] {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const body = i < rare ? `The pool restarts after the watchdog fires (case ${i}).` : `The pool keeps ${i % 7} spare connections.`;
    ids.push(store.add({ kind: 'decision', title: `Pool note ${i}`, body, source: 'user', files: [`src/pool${i % 3}.ts`] }).id);
  }
  return ids;
}

describe('term counts', () => {
  it('stems words exactly as the full-text index does', () => {
    const store = freshStore();
    assert.deepEqual(store.termStats.stems(['connections', 'retry', 'decode_peer', 'pool']), [['connect'], ['retri'], ['decod', 'peer'], ['pool']]);
  });

  it('counts each term once per memory, and says when a count is due', () => {
    const store = freshStore();
    fill(store, 30, 4);
    assert.equal(store.termStats.isStale(), false, 'a small store needs no count');
    assert.equal(store.termStats.frequencies(['pool']), null, 'and has none');
    store.termStats.recount();
    const counted = store.termStats.frequencies(['pool', 'watchdog', 'absent']);
    assert.ok(counted);
    assert.equal(counted.rows, 30);
    assert.equal(counted.docs.get('pool'), 30, 'title and body both say pool: counted once per memory');
    assert.equal(counted.docs.get('watchdog'), 4);
    assert.equal(counted.docs.has('absent'), false);
    assert.equal(store.termStats.isStale(), false);
    fill(store, Math.ceil(TERM_STATS_MIN_ROWS / 10) + 1, 0);
    assert.equal(store.termStats.isStale(), true, 'more changes than a tenth of the minimum since the count');
  });

  it('counts in slices with the same result, pausing between them', async () => {
    const store = freshStore();
    fill(store, 40, 5);
    // More distinct terms than one slice reads (500).
    store.add({ kind: 'note', title: 'Vocabulary', body: Array.from({ length: 1200 }, (_, i) => `word${i}`).join(' '), source: 'user' });
    store.termStats.recount();
    const whole = store.termStats.frequencies(['watchdog', 'word0', 'word1199', 'pool']);
    let pauses = 0;
    await store.termStats.recountInSlices(async () => void pauses++);
    assert.ok(pauses >= 2, `${pauses} pauses`);
    assert.deepEqual(store.termStats.frequencies(['watchdog', 'word0', 'word1199', 'pool']), whole);
    assert.equal(whole?.docs.get('word1199'), 1);
  });
});

describe('selective full-text search', () => {
  it('ranks every term without counts, and the rarest within the budget with them', () => {
    const docs = new Map([['pool', 900], ['watchdog', 12], ['restart', 300]]);
    const docsOf = (t: string) => docs.get(t) ?? 0;
    assert.deepEqual(planTextSearch(['pool', 'watchdog', 'restart'], docsOf, null, 100), { ranked: ['pool', 'watchdog', 'restart'], common: [], idf: new Map() });
    const plan = planTextSearch(['pool', 'watchdog', 'restart', 'unseen'], docsOf, 1000, 400);
    assert.deepEqual(plan.ranked, ['unseen', 'watchdog', 'restart'], 'an uncounted word is taken as rare');
    assert.deepEqual(plan.common, [{ term: 'pool', idf: inverseDocumentFrequency(1000, 900) }]);
    assert.equal(inverseDocumentFrequency(1000, 900), 1e-6, 'a word in most rows adds (almost) nothing, as in FTS5');
  });

  it('finds the memories of the rare term first and fills up with the newest common matches', () => {
    const store = freshStore();
    const ids = fill(store, 60, 3);
    store.termStats.recount();
    const { ranks } = searchText(store, ["watchdog", "pool"], 10, 10);
    assert.equal(ranks.size, 10);
    const byRank = [...ranks.entries()].sort((a, b) => a[1] - b[1]);
    const rare = new Set(store.reads.byRowids(byRank.slice(0, 3).map(([rowid]) => rowid)).map((m) => m.id));
    assert.deepEqual([...rare].sort(), ids.slice(0, 3).sort(), 'the three watchdog memories rank first');
    for (const [, rank] of byRank.slice(3)) assert.ok(rank > byRank[2]![1], 'memories with only the common word rank below');
  });

  it("scores a file's memories on the words left out of the search", () => {
    const store = freshStore();
    // The newest matches of the common word are all in another file; the file's own memory is the oldest.
    const own = store.add({ kind: 'decision', title: 'Pool restarts are logged', body: 'The pool logs every restart.', source: 'user', files: ['src/own.ts'] });
    fill(store, 150, 0);
    store.termStats.recount();
    const request = { query: 'pool', file: 'src/own.ts', limit: 3 };
    const { ranks } = searchText(store, ['pool'], 100, 10);
    assert.equal(ranks.size, 100, 'the search itself found only the hundred newest');
    const top = recall(store, request, { rankedPostings: 10 });
    assert.equal(top[0]?.memory.id, own.id);
    assert.ok(top[0]!.explanation.some((p) => p.reason === 'text match'), 'the file\'s memory counts as a text match');
  });

  it('gives recall the same best answer as ranking every term', () => {
    const store = freshStore();
    const ids = fill(store, 60, 3);
    store.termStats.recount();
    const request = { query: 'why does the pool restart when the watchdog fires', limit: 3 };
    const selective = recall(store, request);
    const every = recall(store, request, { rankedPostings: Infinity });
    assert.deepEqual(selective.map((r) => r.memory.id).sort(), every.map((r) => r.memory.id).sort());
    assert.deepEqual(selective.map((r) => r.memory.id).sort(), ids.slice(0, 3).sort());
  });

  it('takes any query text without an error', () => {
    const store = freshStore();
    fill(store, 20, 2);
    store.termStats.recount();
    for (const query of ['"unbalanced (quote', 'NEAR/2 a* OR AND NOT', 'x'.repeat(100_000), 'naïve café 東京', '__ pool __', 'pool']) {
      for (const rankedPostings of [undefined, 1]) {
        const results = recall(store, { query, limit: 5 }, { rankedPostings });
        for (const r of results) assert.ok(Number.isFinite(r.score), `${query}: a finite score`);
      }
    }
  });
});
