import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { keptGoverningConstraints } from '../../server/src/constraints/governing';
import { recall } from '../../server/src/recall/recall';
import { openDatabase } from '../../server/src/store/database';
import { MemoryStore, type CandidateRow } from '../../server/src/store/memoryStore';
import { RESIDENT_ROWS_MAX } from '../../server/src/store/rowCaches';
import { TEXT_INDEX_ROWS_MAX } from '../../server/src/store/textIndex/residentTextIndex';
import { UsageStore } from '../../server/src/store/usageStore';
import { scoringRowFields } from '../support/scoringRowFields';
import { tempDir } from '../support/tempDirs';

/** The memory server's store and a short command's, on one database. */
function stores() {
  const file = path.join(tempDir(), 'memory.db');
  const serverDb = openDatabase(file).db;
  const otherDb = openDatabase(file).db;
  return { serverDb, otherDb, server: new MemoryStore(serverDb, undefined, { resident: true }), other: new MemoryStore(otherDb) };
}

/** A scoring row's fields without its path numbers, which each store gives out in its own order. */
const scored = (r: CandidateRow) => ({ ...scoringRowFields(r), soleFile: undefined, soleFolder: undefined });

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('what the memory server keeps of a large store', () => {
  it('loads every scoring row in slices, and a memory changed during the load is read again', async () => {
    const { server, other } = stores();
    const ids = Array.from({ length: 2100 }, (_, i) => other.add({ kind: 'note', title: `note ${i}`, body: 'body', source: 'user', files: [`src/f${i % 7}.ts`] }).id);
    let pauses = 0;
    const loaded = await server.reads.loadEveryCandidate(async () => {
      // Another process edits a memory between two slices.
      if (pauses++ === 0) other.update({ ...other.get(ids[10]!)!, importance: 0.99, updatedAt: Date.now() + 1 });
      await nextTurn();
    });
    assert.equal(loaded, 2100);
    assert.ok(pauses >= 1, 'the load paused between slices');
    const rowids = server.reads.rowidsForFile('src/f3.ts', 1000);
    assert.deepEqual(server.reads.candidates(rowids).map(scored), other.reads.candidates(rowids).map(scored));
    assert.equal(server.reads.candidates([server.reads.rowidsRecent(5000).find((r) => server.reads.byRowids([r])[0]!.id === ids[10])!])[0]!.importance, 0.99);
    assert.equal(await server.reads.loadEveryCandidate(nextTurn), 0, 'loaded once');
  });

  it('answers before the rows are loaded, reading the ones it needs', () => {
    const { server, other } = stores();
    other.add({ kind: 'decision', title: 'Retry the upload with backoff', body: 'body', source: 'user', files: ['src/upload.ts'], symbols: ['upload'] });
    const found = recall(server, { file: 'src/upload.ts', symbol: 'upload', limit: 5 });
    assert.equal(found[0]?.memory.title, 'Retry the upload with backoff');
  });

  it('keeps neither every row nor a text index past its limits, and recall asks SQLite', async () => {
    const { serverDb, other } = stores();
    other.add({ kind: 'decision', title: 'Retry the upload with backoff', body: 'body', source: 'user', files: ['src/upload.ts'] });
    // Rowids count every memory ever written: one written far out stands for a large store.
    other.add({ kind: 'note', title: 'far out', body: 'body', source: 'user' });
    serverDb.prepare("UPDATE memories SET rowid = @rowid WHERE title = 'far out'").run({ rowid: Math.max(RESIDENT_ROWS_MAX, TEXT_INDEX_ROWS_MAX) + 1 });
    const server = new MemoryStore(serverDb, undefined, { resident: true });
    assert.equal(server.reads.keepEveryCandidate(), 0);
    assert.equal(await server.reads.loadEveryCandidate(nextTurn), 0);
    assert.equal(await server.reads.buildTextIndex(nextTurn), 0);
    assert.equal(server.reads.textIndexState, 'too large');
    assert.equal(server.reads.textIndex(), null);
    assert.equal(recall(server, { query: 'upload backoff', limit: 5 })[0]?.memory.title, 'Retry the upload with backoff');
  });

  it("keeps a file's governing rules until a memory changes, not until one is shown", () => {
    const { serverDb, server, other } = stores();
    const usage = new UsageStore(serverDb, true);
    const rule = other.add({ kind: 'constraint', title: 'Never log tokens', body: 'body', source: 'user', pin: 'hard', files: ['src/auth.ts'] });
    const first = keptGoverningConstraints(server, 'src/auth.ts');
    assert.deepEqual(first.map((c) => c.id), [rule.id]);
    usage.shown([rule.id], Date.now());
    assert.equal(keptGoverningConstraints(server, 'src/auth.ts'), first, 'kept across usage');
    const second = other.add({ kind: 'constraint', title: 'Validate input', body: 'body', source: 'user', pin: 'soft', files: ['src/auth.ts'] });
    assert.deepEqual(keptGoverningConstraints(server, 'src/auth.ts').map((c) => c.id), [rule.id, second.id]);
  });
});
