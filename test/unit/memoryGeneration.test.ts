import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openProject } from '../../server/src/project';
import { GenerationMap } from '../../server/src/store/generationMap';
import { tempDir } from '../support/tempDirs';

describe("the memories' generation (what the server's hover and CodeLens cache is valid for)", () => {
  it('moves on every change to a memory, from any process; usage moves only the generation with usage', () => {
    const env = { ...process.env, ENGRAM_HOME: tempDir('engram-home-') };
    const root = tempDir('engram-project-');
    const server = openProject(root, env);
    const other = openProject(root, env);
    try {
      let last = server.store.generation();
      let lastWithUsage = server.store.generationWithUsage();
      const moved = (what: string) => {
        const now = server.store.generation();
        assert.ok(now > last, `${what} did not move the generation`);
        assert.ok(server.store.generationWithUsage() > lastWithUsage, `${what} did not move the generation with usage`);
        last = now;
        lastWithUsage = server.store.generationWithUsage();
      };
      const memory = other.store.add({ kind: 'decision', title: 'Use WAL', source: 'user', files: ['src/db.ts'], symbols: ['open'] });
      moved('add in another process');
      other.store.update({ ...memory, title: 'Use WAL mode' });
      moved('update');
      server.store.setPin(memory.id, 'soft');
      moved('pin in this process');
      other.usage.shown([memory.id], Date.now());
      assert.equal(server.store.generation(), last, 'showing a memory leaves the recall caches alone');
      assert.ok(server.store.generationWithUsage() > lastWithUsage, 'but not the hover cache, which ranks by usage');
      lastWithUsage = server.store.generationWithUsage();
      other.lifecycle.setStatus([memory.id], 'forgotten');
      moved('forget');
      server.editorState.put({ windowId: 'w1', activeFile: 'src/db.ts', line: 3, character: 0, symbol: 'open', selection: null, updatedAt: Date.now() });
      other.injections.log('s1', 'user-prompt-submit', [{ memoryId: memory.id, tokens: 10 }], Date.now());
      assert.equal(server.store.generation(), last, 'editor state and injection log writes leave it alone');
      assert.equal(server.store.generationWithUsage(), lastWithUsage);
    } finally {
      server.close();
      other.close();
    }
  });

  it('keeps values for one generation, at most its capacity, the least recently used out first', () => {
    // Two generations of two: a full young map becomes the old one, and the old one is dropped.
    const map = new GenerationMap<string, number>(4);
    map.sync(1);
    map.set('a', 1);
    map.set('b', 2);
    assert.equal(map.get('a'), 1, 'a is now the most recently used');
    map.set('c', 3);
    assert.equal(map.get('b'), undefined, 'b went first');
    assert.equal(map.get('a'), 1);
    map.sync(1);
    assert.equal(map.get('c'), 3, 'the same generation keeps everything');
    map.sync(2);
    assert.equal(map.get('a'), undefined, 'a new generation starts empty');
    let computed = 0;
    assert.equal(map.getOrCompute('d', () => ++computed), 1);
    assert.equal(map.getOrCompute('d', () => ++computed), 1, 'computed once');
  });

  it('reads memories whole once per generation, and again after another process changed them', () => {
    const env = { ...process.env, ENGRAM_HOME: tempDir('engram-home-') };
    const root = tempDir('engram-project-');
    const server = openProject(root, env);
    const other = openProject(root, env);
    try {
      const memory = other.store.add({ kind: 'decision', title: 'Use WAL', source: 'user', files: ['src/db.ts'], symbols: ['open'] });
      const [rowid] = server.store.reads.rowidsForFile('src/db.ts', 10);
      assert.ok(rowid !== undefined);
      const [first] = server.store.reads.byRowids([rowid]);
      assert.equal(first!.title, 'Use WAL');
      assert.equal(server.store.reads.byRowids([rowid])[0], first, 'the same object while nothing changed');
      other.store.update({ ...memory, title: 'Use WAL mode', files: ['src/db.ts', 'src/pool.ts'] });
      const [changed] = server.store.reads.byRowids([rowid]);
      assert.equal(changed!.title, 'Use WAL mode');
      assert.deepEqual([...changed!.files].sort(), ['src/db.ts', 'src/pool.ts']);
      other.lifecycle.setStatus([memory.id], 'forgotten');
      assert.equal(server.store.reads.byRowids([rowid])[0]!.status, 'forgotten');
      assert.deepEqual(server.store.reads.byRowids([rowid + 1000]), [], 'a rowid with no memory is left out');
      const counted = server.store.counts();
      assert.equal(server.store.reads.lowercaseTexts([rowid], 4000).get(rowid)?.includes('use wal mode'), true);
      other.store.add({ kind: 'gotcha', title: 'Checkpoint before backup', source: 'user', pin: 'hard' });
      other.store.update({ ...memory, title: 'Use WAL mode always', status: 'active' });
      assert.equal(server.store.reads.lowercaseTexts([rowid], 4000).get(rowid)?.includes('use wal mode always'), true, 'texts are read again after a change');
      const recounted = server.store.counts();
      assert.equal(recounted.total, counted.total + 1, 'counts are taken again after a change');
      assert.equal(recounted.pinned.hard, counted.pinned.hard + 1);
    } finally {
      server.close();
      other.close();
    }
  });
});
