import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { identifierParts } from '../../server/src/memory/identifierParts';
import { toFtsQuery } from '../../server/src/recall/terms';
import { openDatabase } from '../../server/src/store/database';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { tempDir } from '../support/tempDirs';

describe('index and query terms', () => {
  it('splits identifiers in every common case style into their words', () => {
    for (const id of ['parseConfig', 'parse_config', 'ParseConfig', 'PARSE_CONFIG']) {
      assert.deepEqual(identifierParts(id).sort(), ['config', 'parse'], id);
    }
    assert.deepEqual(identifierParts('HTTPServer').sort(), ['http', 'server']);
    assert.deepEqual(identifierParts('src/db/pool.ts').sort(), ['db', 'pool', 'src', 'ts']);
  });

  it('quotes every word so no user text is read as FTS5 syntax', () => {
    assert.equal(toFtsQuery('"); DROP TABLE memories; -- (a OR b) NEAR/2 c*'), '"drop" OR "table" OR "memories" OR "near" OR "2"');
    assert.equal(toFtsQuery('what is the pool size of the app?'), '"pool" OR "size" OR "app"', 'function words are left out');
    assert.equal(toFtsQuery('  ( ) " * '), null);
  });

  it('produces queries that SQLite accepts for hostile and huge inputs', () => {
    const { db } = openDatabase(path.join(tempDir(), 'memory.db'));
    const store = new MemoryStore(db);
    store.add({ kind: 'note', title: 'parse the config file', source: 'user' });
    const inputs = ['"unbalanced', '((((', 'a AND OR NOT b', 'col:value', "it's", 'x'.repeat(100_000), 'word '.repeat(20_000)];
    for (const input of inputs) {
      const query = toFtsQuery(input);
      if (query) assert.doesNotThrow(() => store.search(query, 10), input.slice(0, 20));
    }
    assert.equal(store.search(toFtsQuery('parseConfig')!, 10).length, 1);
    db.close();
  });
});
