import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../../server/src/store/database';
import { InjectionStore, type GivenContext } from '../../server/src/store/injectionStore';
import { tempDir } from '../support/tempDirs';

function given(memoryIds: string[], at: number, forgetEarlier = false): GivenContext {
  return { sessionId: 's1', event: 'user-prompt-submit', items: memoryIds.map((memoryId) => ({ memoryId, tokens: 10 })), at, forgetEarlier };
}

/** The store, and a second connection that can hold the database as another writer would. */
function storeWithOtherWriter() {
  const file = path.join(tempDir(), 'memory.db');
  const { db } = openDatabase(file);
  const other = openDatabase(file).db;
  return { file, db, store: new InjectionStore(db), other };
}

describe('the injection log', () => {
  it('keeps what it cannot log while another writer holds the database, counts it as given, and logs it with the next write', () => {
    const { file, db, store, other } = storeWithOtherWriter();
    const shown: string[] = [];
    const alongside = (entry: GivenContext) => void shown.push(...entry.items.map((i) => i.memoryId));
    other.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    assert.equal(store.record(given(['m1', 'm2'], 1), alongside, 50), 'deferred');
    assert.ok(Date.now() - started < 1000, 'waited about as long as it was told, not the connection busy timeout');
    assert.deepEqual([...store.givenTo('s1')].sort(), ['m1', 'm2']);
    assert.deepEqual(store.forSession('s1'), []);
    other.exec('ROLLBACK');
    assert.equal(store.record(given(['m3'], 2), alongside, 50), 'written');
    assert.deepEqual(store.forSession('s1').map((i) => [i.memoryId, i.createdAt]), [['m1', 1], ['m2', 1], ['m3', 2]], 'in the order they were given, with their times');
    assert.deepEqual(shown, ['m1', 'm2', 'm3']);
    assert.equal(existsSync(`${file}.pending-injections`), false);
    assert.equal(store.record(null, alongside, 50), 'nothing');
    db.close();
    other.close();
  });

  it('applies a compaction kept in the backlog in its place: what came before it is no longer given', () => {
    const { db, store, other } = storeWithOtherWriter();
    const none = () => undefined;
    assert.equal(store.record(given(['m1'], 1), none, 50), 'written');
    other.exec('BEGIN IMMEDIATE');
    assert.equal(store.record({ ...given(['m2'], 2, true), event: 'session-start' }, none, 50), 'deferred');
    assert.deepEqual([...store.givenTo('s1')], ['m2'], 'the compaction dropped m1 from the context');
    other.exec('ROLLBACK');
    assert.equal(store.record(null, none, 50), 'written');
    assert.deepEqual(store.forSession('s1').map((i) => i.memoryId), ['m2']);
    db.close();
    other.close();
  });
});
