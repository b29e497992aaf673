import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { EditorMemoryCache } from '../../server/src/lsp/editorMemoryCache';
import { openDatabase } from '../../server/src/store/database';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { UsageStore } from '../../server/src/store/usageStore';
import { tempDir } from '../support/tempDirs';

describe("the editor's kept answers", () => {
  it('keeps counts while memories are only used, ranked answers until then, and neither past a change by another process', () => {
    const file = path.join(tempDir(), 'memory.db');
    const server = new MemoryStore(openDatabase(file).db, undefined, { resident: true });
    const otherDb = openDatabase(file).db;
    const other = new MemoryStore(otherDb);
    const hook = new UsageStore(otherDb);
    const cache = new EditorMemoryCache(server);
    const id = other.add({ kind: 'note', title: 'one', body: 'body', source: 'user', files: ['a.ts'] }).id;
    let counts = 0;
    let ranks = 0;
    const read = () => [cache.get('count:a.ts', () => ++counts), cache.getRanked('symbol:a.ts:f', () => ++ranks)];
    assert.deepEqual(read(), [1, 1]);
    assert.deepEqual(read(), [1, 1], 'kept while nothing changed');
    // A hook shows the memory to an agent: usage moves, the count does not.
    hook.shown([id]);
    assert.deepEqual(read(), [1, 2]);
    hook.acted(id);
    assert.deepEqual(read(), [1, 3]);
    other.add({ kind: 'note', title: 'two', body: 'body', source: 'user', files: ['a.ts'] });
    assert.deepEqual(read(), [2, 4]);
  });
});
