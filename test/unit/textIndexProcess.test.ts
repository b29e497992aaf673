import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { recall } from '../../server/src/recall/recall';
import { openDatabase } from '../../server/src/store/database';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { tempDir } from '../support/tempDirs';

const WORDS = ['pool', 'connection', 'retry', 'café', 'décor', 'decode_peer', 'frames', 'watchdog', 'parseConfig', '接続', 'rocket', 'timeout'];

describe('the text index built in a process of its own', () => {
  it('is the index built in the server, term for term, and follows later writes', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const here = new MemoryStore(openDatabase(file).db, undefined, { resident: true });
    const threaded = new MemoryStore(openDatabase(file).db, undefined, { resident: true });
    for (let i = 0; i < 300; i++) {
      const pick = (n: number) => WORDS[(i * 7 + n * 5) % WORDS.length];
      here.add({ kind: 'decision', title: `${pick(1)} ${pick(2)} ${i}`, body: `${pick(3)} then ${pick(4)}; ${pick(5)}.`, why: i % 3 ? `because ${pick(6)}` : null, source: 'user', files: [`src/f${i % 9}.ts`] });
    }
    void here.reads.buildTextIndex();
    assert.equal(await threaded.reads.buildTextIndexElsewhere(file), 300);
    assert.equal(threaded.reads.textIndexState, 'ready');
    const [a, b] = [here.reads.textIndex()!, threaded.reads.textIndex()!];
    assert.deepEqual(b.size(), a.size());
    assert.equal(b.averageLength, a.averageLength);
    for (const word of WORDS) {
      for (const term of a.termsOf([word])[0]!) {
        const [pa, pb] = [a.postings(term)!, b.postings(term)!];
        assert.deepEqual([...pb.rowids.subarray(0, pb.count)], [...pa.rowids.subarray(0, pa.count)], term);
        assert.deepEqual([...pb.freqs.subarray(0, pb.count)], [...pa.freqs.subarray(0, pa.count)], term);
      }
    }
    // Written after the build: both bring their index up to date from the change log.
    const late = here.add({ kind: 'gotcha', title: 'watchdog restarts the pool twice', body: 'rocket timeout', source: 'user' });
    const ask = (store: MemoryStore) => recall(store, { query: 'watchdog rocket timeout', limit: 5 }).map((r) => r.memory.id);
    assert.equal(ask(threaded)[0], late.id);
    assert.deepEqual(ask(threaded), ask(here));
  });
});
