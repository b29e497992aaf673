import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { anchorLines } from '../../server/src/anchors/anchorFromText';
import { memoryToRecord, parseMemoryRecord } from '../../server/src/memory/record';
import { openDatabase } from '../../server/src/store/database';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { tempDir } from '../support/tempDirs';

function freshStore(): MemoryStore {
  const { db } = openDatabase(path.join(tempDir(), 'memory.db'));
  return new MemoryStore(db);
}

const SOURCE = ['import { pool } from "./pool";', '', 'export function query(sql: string) {', '  return pool.run(sql);', '}', ''].join('\n');

describe('the memory store', () => {
  it('stores a memory with its files, symbols and anchor, and reads it back', () => {
    const store = freshStore();
    const anchor = anchorLines('src/db.ts', SOURCE, 2, 4);
    const added = store.add({
      kind: 'constraint',
      title: 'Always pass SQL parameters',
      body: 'Never concatenate user input into SQL.',
      why: 'injection',
      source: 'user',
      pin: 'hard',
      files: ['src/db.ts', 'src/db.ts', 'src/a.ts'],
      symbols: ['query'],
      anchor,
    });
    const read = store.get(added.id);
    assert.deepEqual(read, added);
    assert.deepEqual(read?.files, ['src/a.ts', 'src/db.ts']);
    assert.equal(read?.anchor?.range.startLine, 2);
    assert.equal(read?.anchor?.stale, false);
  });

  it('lists the active constraints of a file, hard pins first', () => {
    const store = freshStore();
    store.add({ kind: 'constraint', title: 'soft rule', source: 'user', pin: 'soft', files: ['src/db.ts'] }, 1000);
    store.add({ kind: 'constraint', title: 'hard rule', source: 'user', pin: 'hard', files: ['src/db.ts'] }, 2000);
    store.add({ kind: 'decision', title: 'not a constraint', source: 'user', files: ['src/db.ts'] });
    store.add({ kind: 'constraint', title: 'other file', source: 'user', files: ['src/ui.ts'] });
    assert.deepEqual(
      store.constraintsForFile('src/db.ts').map((m) => m.title),
      ['hard rule', 'soft rule'],
    );
  });

  it('finds memories by full text, including identifier parts and path segments', () => {
    const store = freshStore();
    store.add({ kind: 'note', title: 'parseConfig ignores comments', source: 'user' });
    store.add({ kind: 'note', title: 'Unrelated', source: 'user', files: ['src/billing/invoice.ts'] });
    assert.deepEqual(store.search('"config"', 10).map((h) => h.memory.title), ['parseConfig ignores comments']);
    assert.deepEqual(store.search('"billing"', 10).map((h) => h.memory.title), ['Unrelated']);
  });

  it('pins and unpins, and reports an unknown id as null', () => {
    const store = freshStore();
    const memory = store.add({ kind: 'fact', title: 'x', source: 'user' });
    assert.equal(store.setPin(memory.id, 'hard')?.pin, 'hard');
    assert.equal(store.counts().pinned.hard, 1);
    assert.equal(store.setPin(memory.id, 'none')?.pin, 'none');
    assert.equal(store.setPin('m_00000000000000000000000000', 'hard'), null);
  });

  it('round-trips every memory through the export format without loss, and imports idempotently', () => {
    const source = freshStore();
    source.add({ kind: 'constraint', title: 'rule', body: 'body\nwith lines', why: 'because', source: 'user', pin: 'hard', files: ['a.ts'], symbols: ['A.b'], anchor: anchorLines('a.ts', SOURCE, 0, 0), meta: { n: 1 } });
    source.add({ kind: 'diff', title: 'Edited query (+1 −1) in src/db.ts', source: 'editor', sessionId: null, importance: 0.25, meta: { hunks: [{ oldStart: 1 }] } });
    const lines = [...source.all()].map((m) => JSON.stringify(memoryToRecord(m)));

    const target = freshStore();
    const outcomes = lines.map((line) => {
      const parsed = parseMemoryRecord(line);
      assert.ok(parsed.ok);
      return target.import(parsed.memory);
    });
    assert.deepEqual(outcomes, ['added', 'added']);
    assert.deepEqual([...target.all()].map((m) => JSON.stringify(memoryToRecord(m))), lines);

    const again = lines.map((line) => {
      const parsed = parseMemoryRecord(line);
      assert.ok(parsed.ok);
      return target.import(parsed.memory);
    });
    assert.deepEqual(again, ['unchanged', 'unchanged']);
    assert.equal(target.counts().total, 2);
  });

  it('replaces a memory on import only when the incoming copy is newer', () => {
    const store = freshStore();
    const memory = store.add({ kind: 'note', title: 'old title', source: 'user' }, 1000);
    assert.equal(store.import({ ...memory, title: 'stale copy', updatedAt: 500 }), 'unchanged');
    assert.equal(store.import({ ...memory, title: 'new title', updatedAt: 2000 }), 'updated');
    assert.equal(store.get(memory.id)?.title, 'new title');
    assert.deepEqual(store.search('"new"', 5).map((h) => h.memory.id), [memory.id]);
    assert.deepEqual(store.search('"old"', 5), []);
  });

  it('tallies a file for CodeLens exactly, however many memories it has, naming only the newest', () => {
    const store = freshStore();
    for (let i = 0; i < 30; i++) store.add({ kind: 'diff', title: `Edited a #${i}`, source: 'editor', files: ['src/x.ts'], symbols: ['a'] }, 1000 + i);
    for (let i = 0; i < 5; i++) store.add({ kind: 'note', title: `b note ${i}`, source: 'user', files: ['src/x.ts'], symbols: ['b', 'a'] }, 2000 + i);
    store.add({ kind: 'constraint', title: 'a must stay pure', source: 'user', files: ['src/x.ts'], symbols: ['a'], pin: 'hard' }, 3000);
    const forgotten = store.add({ kind: 'note', title: 'gone', source: 'user', files: ['src/x.ts'], symbols: ['a'] }, 4000);
    store.update({ ...forgotten, status: 'forgotten' });
    const tally = store.fileMemoryTally('src/x.ts', 10);
    assert.equal(tally.total, 35, 'active, constraints aside');
    assert.equal(tally.recentIds.length, 10);
    assert.equal(store.get(tally.recentIds[0]!)?.title, 'b note 4', 'newest first');
    const bySymbol = store.symbolMemoryTally('src/x.ts', ['a', 'b', 'c'], 10);
    assert.equal(bySymbol.get('a')?.count, 35);
    assert.equal(bySymbol.get('a')?.ids.length, 10);
    assert.equal(store.get(bySymbol.get('a')!.ids[0]!)?.title, 'b note 4', 'newest first');
    assert.equal(store.symbolMemoryTally('src/x.ts', ['a'], 3).get('a')?.ids.length, 3);
    assert.equal(bySymbol.get('b')?.count, 5);
    assert.deepEqual([...bySymbol.keys()], ['a', 'b'], 'only symbols with memories');
    assert.deepEqual(store.fileMemoryTally('src/other.ts', 10), { total: 0, recentIds: [] });
    assert.deepEqual(store.symbolMemoryTally('src/other.ts', ['a'], 10), new Map());
  });

  it('imports a batch in one transaction, with the same outcomes as one by one, and all or nothing', () => {
    const source = freshStore();
    const a = source.add({ kind: 'decision', title: 'Use WAL', source: 'user', files: ['src/db.ts'] }, 1000);
    const b = source.add({ kind: 'note', title: 'Pool of ten', source: 'user' }, 1000);
    const target = freshStore();
    assert.deepEqual(target.importMany([a, b, { ...a, title: 'Use WAL mode', updatedAt: 2000 }, { ...b, updatedAt: 10 }]), ['added', 'added', 'updated', 'unchanged']);
    assert.equal(target.get(a.id)?.title, 'Use WAL mode');
    assert.deepEqual(target.importMany([a, b]), ['unchanged', 'unchanged']);
    const broken = { ...b, id: 'm_01ZZZZZZZZZZZZZZZZZZZZZZZZ' as typeof b.id, importance: 7 };
    const c = source.add({ kind: 'gotcha', title: 'Tests need TZ=UTC', source: 'user' }, 1000);
    assert.throws(() => target.importMany([c, broken]), /CHECK constraint failed/);
    assert.equal(target.get(c.id), null, 'nothing of a failed batch is kept');
    assert.equal(target.counts().total, 2);
  });

  it('rejects malformed export lines with a reason instead of storing them', () => {
    assert.match((parseMemoryRecord('{not json') as { error: string }).error, /not JSON/);
    assert.match((parseMemoryRecord('{"id":"x"}') as { error: string }).error, /id: not an Engram memory id/);
  });
});
