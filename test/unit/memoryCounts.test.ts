// The counts the status bar, `engram stats` and doctor show come from a table triggers keep
// (migration 017); they must equal a count of the memories themselves after any write, from any
// connection, and after the migration fills the table of a store that had none.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openDatabase } from '../../server/src/store/database';
import { SCHEMA_VERSION } from '../../server/src/store/migrations';
import { MemoryStore, type MemoryCounts } from '../../server/src/store/memoryStore';
import { tempDir } from '../support/tempDirs';

/** What counts() must say, counted from the memories. */
function countedFromMemories(db: Database.Database): Omit<MemoryCounts, 'sessions'> {
  const rows = db.prepare('SELECT kind, status, pin, count(*) AS n FROM memories GROUP BY kind, status, pin').all() as { kind: string; status: string; pin: string; n: number }[];
  const byStatus = { active: 0, archived: 0, forgotten: 0 } as Record<string, number>;
  const byKind: Record<string, number> = {};
  const pinned = { soft: 0, hard: 0 } as Record<string, number>;
  let total = 0;
  for (const row of rows) {
    total += row.n;
    byStatus[row.status]! += row.n;
    if (row.status !== 'active') continue;
    byKind[row.kind] = (byKind[row.kind] ?? 0) + row.n;
    if (row.pin !== 'none') pinned[row.pin]! += row.n;
  }
  return { total, byStatus, byKind, pinned } as Omit<MemoryCounts, 'sessions'>;
}

function assertCounts(store: MemoryStore, db: Database.Database, label: string): void {
  const { sessions: _sessions, byKind, ...rest } = store.counts();
  const expected = countedFromMemories(db);
  const nonZero = Object.fromEntries(Object.entries(byKind).filter(([, n]) => n > 0));
  assert.deepEqual({ ...rest, byKind: nonZero }, expected, label);
}

describe('memory counts', () => {
  it('follow every write: adds, pins, status changes, kind changes, deletes, from this connection and another', () => {
    const file = path.join(tempDir(), 'memory.db');
    const { db } = openDatabase(file);
    const store = new MemoryStore(db);
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const kind = (['note', 'decision', 'constraint', 'gotcha', 'fact'] as const)[i % 5]!;
      ids.push(store.add({ kind, title: `memory ${i}`, source: 'user', pin: i % 7 === 0 ? 'hard' : 'none' }, 1000 + i).id);
    }
    assertCounts(store, db, 'after adds');
    store.setPin(ids[1]!, 'soft');
    store.setPin(ids[0]!, 'none');
    assertCounts(store, db, 'after pins');
    db.prepare("UPDATE memories SET status = 'forgotten' WHERE id IN (?, ?, ?)").run(ids[2], ids[3], ids[7]);
    db.prepare("UPDATE memories SET status = 'archived' WHERE id = ?").run(ids[4]);
    assertCounts(store, db, 'after status changes');
    db.prepare("UPDATE memories SET kind = 'fact', title = 'renamed' WHERE id = ?").run(ids[5]);
    db.prepare("UPDATE memories SET title = 'only the title' WHERE id = ?").run(ids[6]);
    assertCounts(store, db, 'after a kind change and a change of neither');

    const other = new Database(file);
    try {
      other.prepare("UPDATE memories SET pin = 'hard' WHERE id = ?").run(ids[10]);
      other.prepare('DELETE FROM memories WHERE id IN (?, ?)').run(ids[11], ids[2]);
      assertCounts(store, db, 'after another connection wrote');
    } finally {
      other.close();
    }
    db.prepare('DELETE FROM memories').run();
    assert.equal(store.counts().total, 0);
    assert.deepEqual(store.counts().byStatus, { active: 0, archived: 0, forgotten: 0 });
  });

  it('are filled by the migration for a store made before the table', () => {
    const file = path.join(tempDir(), 'memory.db');
    {
      const { db } = openDatabase(file);
      const store = new MemoryStore(db);
      for (let i = 0; i < 25; i++) store.add({ kind: i % 2 ? 'decision' : 'note', title: `m${i}`, source: 'user', pin: i % 5 === 0 ? 'soft' : 'none' }, 1000 + i);
      db.prepare("UPDATE memories SET status = 'archived' WHERE title = 'm3'").run();
      // As schema 16 left it: no table, no triggers (nor schema 18's index).
      db.exec('DROP TRIGGER memories_counts_insert; DROP TRIGGER memories_counts_delete; DROP TRIGGER memories_counts_update; DROP TABLE memory_counts; DROP INDEX memories_session_activity;');
      db.pragma('user_version = 16');
      db.close();
    }
    const { db, infos } = openDatabase(file);
    try {
      assert.match(infos.join('\n'), new RegExp(`before migrating from schema 16 to ${SCHEMA_VERSION}`));
      const store = new MemoryStore(db);
      assertCounts(store, db, 'after the migration');
      assert.equal(store.counts().total, 25);
      assert.equal(store.counts().byStatus.archived, 1);
    } finally {
      db.close();
    }
  });
});
