import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { countedMemoryIds, declarationConstraints, declarationCounts, fileCounts } from '../../server/src/lsp/countedMemories';
import { openDatabase } from '../../server/src/store/database';
import { MEMORY_SELECTION_MAX } from '../../contracts/viewProtocol';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { tempDir } from '../support/tempDirs';

const FILE = 'src/orders.ts';

/** A file with a rule over it, a rule of one declaration, a rule candidate and memories of the file and its declarations. */
function orders() {
  const db = openDatabase(path.join(tempDir(), 'memory.db')).db;
  const store = new MemoryStore(db, undefined, { resident: true });
  const add = (title: string, at: number, fields: object) => store.add({ kind: 'note', title, source: 'user', files: [FILE], ...fields }, at).id;
  const ids = {
    fileRule: add('Orders are never deleted.', 1_000, { kind: 'constraint', pin: 'soft' }),
    cancelRule: add('cancel() keeps the row.', 1_001, { kind: 'constraint', pin: 'hard', symbols: ['cancel'] }),
    candidate: add('Always log a cancel.', 1_002, { kind: 'constraint', meta: { candidate: true } }),
    oldCancel: add('cancel() was a delete.', 2_000, { symbols: ['cancel'] }),
    total: add('total() rounds half even.', 3_000, { kind: 'decision', symbols: ['total'] }),
    newCancel: add('cancel() sets a status.', 4_000, { kind: 'diff', symbols: ['cancel'] }),
    fileNote: add('Orders are kept for seven years.', 5_000, {}),
    elsewhere: store.add({ kind: 'note', title: 'Not this file.', source: 'user', files: ['src/cart.ts'], symbols: ['cancel'] }, 6_000).id,
  };
  return { store, ids, db };
}

describe('what a CodeLens counts, and what its click shows', () => {
  it('counts the file\'s rules, candidates apart, and its other memories; each declaration its own', () => {
    const { store, ids } = orders();
    const counts = fileCounts(store, FILE);
    assert.deepEqual(counts.constraints.map((c) => c.id).sort(), [ids.fileRule, ids.cancelRule].sort());
    assert.deepEqual(counts.candidates.map((c) => c.id), [ids.candidate]);
    assert.equal(counts.memories, 4);
    assert.deepEqual(declarationConstraints(counts, 'cancel').map((c) => c.id), [ids.cancelRule]);
    assert.deepEqual(declarationConstraints(counts, 'total'), []);
    assert.deepEqual([...declarationCounts(store, FILE, ['cancel', 'total', 'refund'])], [['cancel', 2], ['total', 1]]);
  });

  it('shows on a click the rules first, then the newest memories, as counted then', () => {
    const { store, ids } = orders();
    const file = countedMemoryIds(store, FILE, { of: 'file' });
    assert.deepEqual(file.slice(0, 3).sort(), [ids.fileRule, ids.cancelRule, ids.candidate].sort());
    assert.equal(file[2], ids.candidate, 'rule candidates after the rules');
    assert.deepEqual(file.slice(3), [ids.fileNote, ids.newCancel, ids.total, ids.oldCancel]);
    assert.deepEqual(countedMemoryIds(store, FILE, { of: 'declaration', name: 'cancel' }), [ids.cancelRule, ids.newCancel, ids.oldCancel]);
    assert.deepEqual(countedMemoryIds(store, FILE, { of: 'declaration', name: 'refund' }), []);

    // A memory changed after the lens was drawn: the click shows what is true now.
    store.update({ ...store.get(ids.oldCancel)!, title: 'cancel() was a delete, until 2025.', updatedAt: 7_000 });
    assert.deepEqual(countedMemoryIds(store, FILE, { of: 'declaration', name: 'cancel' }), [ids.cancelRule, ids.oldCancel, ids.newCancel]);
    store.update({ ...store.get(ids.newCancel)!, status: 'archived', updatedAt: 8_000 });
    assert.equal(fileCounts(store, FILE).memories, 3);
    assert.deepEqual([...declarationCounts(store, FILE, ['cancel', 'total'])], [['cancel', 1], ['total', 1]]);
  });

  it('keeps room for the newest memories when the rules alone would fill a selection', () => {
    const { store, ids, db } = orders();
    db.transaction(() => {
      for (let i = 0; i < MEMORY_SELECTION_MAX; i++) store.add({ kind: 'constraint', title: `Rule ${i}`, source: 'user', files: [FILE] }, 10_000 + i);
    })();
    const file = countedMemoryIds(store, FILE, { of: 'file' });
    assert.equal(file.length, MEMORY_SELECTION_MAX);
    assert.deepEqual(file.slice(-4), [ids.fileNote, ids.newCancel, ids.total, ids.oldCancel]);
  });
});
