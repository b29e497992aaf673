import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Database } from 'better-sqlite3';
import { openProject } from '../../server/src/project';
import { tempDir } from '../support/tempDirs';

function dbOf(project: ReturnType<typeof openProject>): Database {
  return (project.store as unknown as { db: Database }).db;
}

function indexSql(db: Database): string[] {
  return db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").pluck().all() as string[];
}

describe('indexes a bulk load builds after its rows (schema v11)', () => {
  it('sets aside the secondary indexes of an empty store, keeps the unique and partial ones, and builds exactly them again', () => {
    const env = { ...process.env, ENGRAM_HOME: tempDir('engram-home-') };
    const project = openProject(tempDir('engram-project-'), env);
    try {
      const db = dbOf(project);
      const before = indexSql(db);
      const deferred = project.deferredIndexes.deferIfEmpty();
      assert.equal(deferred, 8);
      assert.deepEqual(project.deferredIndexes.pending(), ['memories_eviction', 'memories_kind_status', 'memories_session', 'memories_session_activity', 'memories_status_updated', 'memories_updated', 'memory_files_path', 'memory_symbols_symbol']);
      assert.ok(indexSql(db).some((sql) => sql.startsWith('CREATE UNIQUE INDEX memories_source_ref')), 'a unique index stays: it rejects duplicates');
      project.store.add({ kind: 'fact', title: 'Pool size is 8', source: 'user', files: ['src/pool.ts'], symbols: ['Pool'] });
      assert.equal(project.store.forFile('src/pool.ts', 10).length, 1, 'the store works without them');
      assert.deepEqual(project.team.marked(), [], 'a partial index stays, and the query that names it works');
      assert.equal(project.deferredIndexes.rebuild(), 8);
      assert.deepEqual(indexSql(db), before);
      assert.deepEqual(project.deferredIndexes.pending(), []);
      assert.equal(project.deferredIndexes.rebuild(), 0);
    } finally {
      project.close();
    }
  });

  it('leaves the indexes of a store that has memories alone', () => {
    const env = { ...process.env, ENGRAM_HOME: tempDir('engram-home-') };
    const project = openProject(tempDir('engram-project-'), env);
    try {
      project.store.add({ kind: 'fact', title: 'A fact', source: 'user' });
      const before = indexSql(dbOf(project));
      assert.equal(project.deferredIndexes.deferIfEmpty(), 0);
      assert.deepEqual(indexSql(dbOf(project)), before);
    } finally {
      project.close();
    }
  });

  it('are built by another process when the import that set them aside died, once', () => {
    const env = { ...process.env, ENGRAM_HOME: tempDir('engram-home-') };
    const root = tempDir('engram-project-');
    const importer = openProject(root, env);
    const before = indexSql(dbOf(importer));
    importer.deferredIndexes.deferIfEmpty();
    importer.close(); // as if the import died here
    const server = openProject(root, env);
    const other = openProject(root, env);
    try {
      assert.equal(other.deferredIndexes.pending().length, 8, 'the note survives the process');
      assert.equal(server.deferredIndexes.rebuild(), 8);
      assert.equal(other.deferredIndexes.rebuild(), 0, 'built once');
      assert.deepEqual(indexSql(dbOf(other)), before);
    } finally {
      server.close();
      other.close();
    }
  });
});
