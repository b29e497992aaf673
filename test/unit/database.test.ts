import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase, SchemaTooNewError } from '../../server/src/store/database';
import { MIGRATIONS, SCHEMA_VERSION } from '../../server/src/store/migrations';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { tempDir } from '../support/tempDirs';

describe('opening a project database', () => {
  it('creates the schema with WAL, a busy timeout of at least 5 s, foreign keys and FTS5', () => {
    const file = path.join(tempDir(), 'nested', 'memory.db');
    const { db, notices } = openDatabase(file);
    try {
      assert.deepEqual(notices, []);
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.ok((db.pragma('busy_timeout', { simple: true }) as number) >= 5000);
      assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
      assert.equal(db.pragma('page_size', { simple: true }), 16_384);
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      const tables = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
      for (const table of ['memories', 'memory_files', 'memory_symbols', 'anchors', 'sessions', 'ingest_offsets', 'injections', 'editor_state', 'memory_fts']) {
        assert.ok(tables.includes(table), `missing table ${table}`);
      }
    } finally {
      db.close();
    }
  });

  it('cuts the write-ahead log back after a bulk write grew it, once a checkpoint lets it start over', () => {
    const file = path.join(tempDir(), 'memory.db');
    const { db } = openDatabase(file);
    try {
      // As a bulk writer does: checkpoints deferred while ~80 MB is written.
      db.pragma('wal_autocheckpoint = 0');
      db.exec('CREATE TABLE bulk (b BLOB)');
      const insert = db.prepare('INSERT INTO bulk VALUES (randomblob(1048576))');
      db.transaction(() => {
        for (let i = 0; i < 80; i++) insert.run();
      })();
      assert.ok(statSync(`${file}-wal`).size > 80 * 1024 * 1024);
      db.pragma('wal_autocheckpoint = 1000');
      // The next commits checkpoint, then start the log over from its beginning.
      for (let i = 0; i < 3; i++) db.exec('DELETE FROM bulk WHERE rowid = (SELECT min(rowid) FROM bulk)');
      assert.ok(statSync(`${file}-wal`).size <= 64 * 1024 * 1024, `${statSync(`${file}-wal`).size} bytes of WAL`);
    } finally {
      db.close();
    }
  });

  it('moves a file that is not SQLite aside, byte for byte, and only then creates a fresh database', () => {
    const dir = tempDir();
    const file = path.join(dir, 'memory.db');
    const garbage = Buffer.from('this is not a database, but it is somebody\'s data\n'.repeat(200));
    writeFileSync(file, garbage);
    const { db, notices } = openDatabase(file);
    db.close();
    const aside = readdirSync(dir).filter((f) => f.startsWith('memory.db.corrupt-') && !f.endsWith('-wal') && !f.endsWith('-shm'));
    assert.equal(aside.length, 1);
    assert.deepEqual(readFileSync(path.join(dir, aside[0]!)), garbage);
    assert.equal(notices.length, 1);
    assert.match(notices[0]!, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not a readable SQLite database`));
    assert.match(notices[0]!, /moved it to/);
  });

  it('refuses a database from a newer schema and leaves it untouched', () => {
    const file = path.join(tempDir(), 'memory.db');
    const { db } = openDatabase(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const before = readFileSync(file);
    assert.throws(() => openDatabase(file), (error: unknown) => {
      assert.ok(error instanceof SchemaTooNewError);
      assert.match(error.message, /newer than this Engram understands/);
      return true;
    });
    assert.deepEqual(readFileSync(file), before);
  });

  it('upgrades a v1 database to the current schema, backing it up first and keeping every memory', () => {
    const dir = tempDir();
    const file = path.join(dir, 'memory.db');
    const v1 = openDatabase(file, MIGRATIONS.slice(0, 1));
    // Rows as schema v1 wrote them: today's store expects columns v1 does not have.
    const insert = v1.db.prepare(`INSERT INTO memories (id, kind, title, body, source, created_at, updated_at) VALUES (?, 'note', ?, '', 'user', ?, ?)`);
    for (let i = 0; i < 50; i++) insert.run(`m_01J0000000000000000000${String(i).padStart(4, '0')}`, `note ${i}`, i, i);
    v1.db.close();

    const upgraded = openDatabase(file);
    try {
      assert.equal(upgraded.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      assert.equal(new MemoryStore(upgraded.db).counts().total, 50);
      assert.match(upgraded.infos.join('\n'), new RegExp(`Backed up .* before migrating from schema 1 to ${SCHEMA_VERSION}`));
      assert.deepEqual(upgraded.notices, [], 'a successful migration is not a problem');
      assert.ok(upgraded.db.prepare("SELECT name FROM sqlite_schema WHERE name = 'file_snapshots'").get());
    } finally {
      upgraded.db.close();
    }
    const backups = readdirSync(dir).filter((f) => f.startsWith('memory.db.backup-v1-'));
    assert.equal(backups.length, 1);
    const backup = openDatabase(path.join(dir, backups[0]!), MIGRATIONS.slice(0, 1));
    try {
      assert.equal(backup.db.pragma('user_version', { simple: true }), 1);
      assert.equal((backup.db.prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n, 50);
    } finally {
      backup.db.close();
    }
  });

  it('keeps the page size of an existing database, and its memories', () => {
    const file = path.join(tempDir(), 'memory.db');
    const created = openDatabase(file);
    new MemoryStore(created.db).add({ kind: 'note', title: 'kept on small pages', source: 'user' });
    // As a database made before 16 KB pages were the default.
    created.db.pragma('journal_mode = DELETE');
    created.db.pragma('page_size = 4096');
    created.db.exec('VACUUM');
    created.db.close();
    const reopened = openDatabase(file);
    try {
      assert.equal(reopened.db.pragma('page_size', { simple: true }), 4096);
      assert.equal(reopened.db.pragma('journal_mode', { simple: true }), 'wal');
      const store = new MemoryStore(reopened.db);
      store.add({ kind: 'note', title: 'and another', source: 'user' });
      assert.equal(store.counts().total, 2);
      assert.equal(store.reads.searchRowids('"small"', 5).length, 1);
    } finally {
      reopened.db.close();
    }
  });

  it('lets two connections migrate the same new file without either failing', () => {
    const file = path.join(tempDir(), 'memory.db');
    const a = openDatabase(file);
    const b = openDatabase(file);
    assert.equal(b.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    a.db.close();
    b.db.close();
    assert.ok(existsSync(file));
  });
});
