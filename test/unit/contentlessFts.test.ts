import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { recall } from '../../server/src/recall/recall';
import { openDatabase } from '../../server/src/store/database';
import { LifecycleStore } from '../../server/src/store/lifecycleStore';
import { memoryValue } from '../../server/src/capacity/value';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { MIGRATIONS, SCHEMA_VERSION } from '../../server/src/store/migrations';
import { tempDir } from '../support/tempDirs';

const WORDS = ['pool', 'connection', 'retry', 'ledger', 'invoice', 'parser', 'Straße', 'café', '接続'];

/** A schema v11 database as v11's store wrote it: the full-text table holding a copy of each memory's text. */
function v11Database(file: string, memories: number): void {
  const { db } = openDatabase(file, MIGRATIONS.slice(0, 11));
  const insert = db.prepare(`INSERT INTO memories (id, kind, title, body, why, source, created_at, updated_at) VALUES (?, 'decision', ?, ?, ?, 'user', ?, ?)`);
  const tag = db.prepare('INSERT INTO memory_files (memory_rowid, path) VALUES (?, ?)');
  const fts = db.prepare('INSERT INTO memory_fts (rowid, title, body, why, tags) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < memories; i++) {
      const title = `${WORDS[i % WORDS.length]} decision ${i}`;
      const body = `The ${WORDS[(i * 5 + 1) % WORDS.length]} keeps state; parseConfig reads note${i}.`;
      const why = i % 3 ? `because ${WORDS[(i + 2) % WORDS.length]}` : null;
      const file = `src/${WORDS[i % 4]}/mod${i % 7}.ts`;
      const rowid = Number(insert.run(`m_01J00000000000000000${String(i).padStart(5, '0')}`, title, body, why, i, i).lastInsertRowid);
      tag.run(rowid, file);
      fts.run(rowid, title, body, why ?? '', `${file} src ${WORDS[i % 4]} mod${i % 7} ts`);
    }
  })();
  db.close();
}

describe('the full-text table without a copy of the text (schema v12)', () => {
  it('migrates a v11 store: same matches and ranks, tags kept in memories, the copy gone, a backup first', () => {
    const dir = tempDir();
    const file = path.join(dir, 'memory.db');
    v11Database(file, 400);
    const before = openDatabase(file, MIGRATIONS.slice(0, 11)).db;
    const queries = ['"pool"', '"café" OR "ledger"', '"parseconfig" AND "state"', '"mod3"', '"接続"', '"note17"'];
    const ranked = (db: typeof before) => queries.map((q) => db.prepare('SELECT rowid, bm25(memory_fts) AS rank FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rank, rowid').all(q));
    const expected = ranked(before);
    before.close();

    const upgraded = openDatabase(file);
    try {
      const db = upgraded.db;
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      assert.match(upgraded.infos.join('\n'), /Backed up .* before migrating from schema 11/);
      assert.deepEqual(ranked(db), expected);
      assert.ok(expected.every((rows) => rows.length > 0));
      assert.equal(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'memory_fts_content'").pluck().get(), 0);
      assert.equal(db.prepare("SELECT fts_tags FROM memories WHERE rowid = 4").pluck().get(), 'src/ledger/mod3.ts src ledger mod3 ts');
      // The memory server's index reads the text back from memories: term for term what FTS5 holds.
      const store = new MemoryStore(db, undefined, { resident: true });
      void store.reads.buildTextIndex();
      db.exec("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, memory_fts, 'row')");
      for (const { term, doc } of db.prepare('SELECT term, doc FROM temp.v').all() as { term: string; doc: number }[]) assert.equal(store.reads.textIndex()!.postings(term)?.count ?? 0, doc, term);
      assert.ok(recall(store, { query: 'ledger invoice', limit: 5 }).length);
    } finally {
      upgraded.db.close();
    }
    const backups = readdirSync(dir).filter((f) => f.startsWith('memory.db.backup-v11-'));
    assert.equal(backups.length, 1);
  });

  it('adds, edits, deletes and purges through the index alone, leaving no orphans', () => {
    const file = path.join(tempDir(), 'memory.db');
    const { db } = openDatabase(file);
    const store = new MemoryStore(db);
    const a = store.add({ kind: 'note', title: 'Zeppelin hangar', body: 'helium leaks', why: 'weather', source: 'user', files: ['src/airship.ts'], symbols: ['Airship.dock'] });
    const b = store.add({ kind: 'note', title: 'Dirigible', body: 'hydrogen', source: 'user' });
    const hits = (q: string) => store.reads.searchRowids(q, 10).length;
    assert.equal(hits('"helium"'), 1);
    assert.equal(hits('"airship"'), 1, 'path segments are indexed through the tags');
    store.update({ ...store.get(a.id)!, body: 'no more leaks', updatedAt: a.updatedAt + 1 });
    assert.equal(hits('"helium"'), 0, 'the old text is gone from the index');
    assert.equal(hits('"leaks"'), 1);
    assert.equal(new LifecycleStore(db, memoryValue).purge([b.id]), 1);
    assert.equal(hits('"hydrogen"'), 0);
    assert.deepEqual(new LifecycleStore(db, memoryValue).orphans().fts, 0);
    assert.equal(db.prepare("SELECT count(*) FROM memory_fts_docsize").pluck().get(), 1);
    db.close();
  });
});
