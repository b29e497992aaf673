import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openProject } from '../../server/src/project';
import { recall } from '../../server/src/recall/recall';
import { CandidateReader } from '../../server/src/store/candidateRows';
import { scoringRowFields } from '../support/scoringRowFields';
import { tempDir } from '../support/tempDirs';

function twoProcesses() {
  const env = { ...process.env, ENGRAM_HOME: tempDir('engram-home-') };
  const root = tempDir('engram-project-');
  // The server keeps every memory (resident); the other stands for a hook, the CLI or an MCP server.
  return { server: openProject(root, env, { resident: true }), other: openProject(root, env) };
}

/** What `run` returns, and the rowids whose scoring rows it read from SQLite. */
function readsOfScoringRows<T>(run: () => T): { result: T; rowids: number[][] } {
  const rowids: number[][] = [];
  const byRowids = CandidateReader.prototype.byRowids;
  CandidateReader.prototype.byRowids = function (this: CandidateReader, asked: readonly number[]) {
    rowids.push([...asked]);
    return byRowids.call(this, asked);
  };
  try {
    return { result: run(), rowids };
  } finally {
    CandidateReader.prototype.byRowids = byRowids;
  }
}

describe('the change log (schema v10) and what the memory server keeps across writes', () => {
  it('keeps unchanged memories when another process changes one, and reads the changed one again', () => {
    const { server, other } = twoProcesses();
    try {
      const a = other.store.add({ kind: 'decision', title: 'Pool size is 8', source: 'user', files: ['lib/pool.ts'], symbols: ['Pool'] });
      const b = other.store.add({ kind: 'gotcha', title: 'Checkpoint before backup', source: 'user', files: ['src/db.ts'] });
      const [ra, rb] = [other.store.reads.rowidsForFile('lib/pool.ts', 1)[0]!, other.store.reads.rowidsForFile('src/db.ts', 1)[0]!];
      const [rowA, rowB] = server.store.reads.candidates([ra, rb]);
      assert.equal(rowA!.pin, 'none');
      const textB = server.store.reads.lowercaseTexts([rb], 4000).get(rb);
      assert.match(textB!, /checkpoint/);

      other.store.setPin(a.id, 'hard');
      const read = readsOfScoringRows(() => server.store.reads.candidates([ra, rb]));
      const [againA, againB] = read.result;
      assert.equal(againA!.pin, 'hard', 'the changed memory is read again');
      assert.deepEqual(read.rowids, [[ra]], 'and only it: the unchanged one is kept');
      assert.deepEqual(scoringRowFields(againB), scoringRowFields(rowB));
      assert.equal(server.store.reads.lowercaseTexts([rb], 4000).get(rb), textB);

      other.store.update({ ...b, title: 'Checkpoint the WAL before a backup', files: ['src/db.ts', 'src/backup.ts'] });
      const [changedB] = server.store.reads.candidates([rb]);
      assert.deepEqual(changedB!.files, ['src/backup.ts', 'src/db.ts']);
      assert.match(server.store.reads.lowercaseTexts([rb], 4000).get(rb)!, /wal/);

      const c = other.store.add({ kind: 'fact', title: 'Backups run nightly', source: 'user', files: ['src/backup.ts'] });
      const found = recall(server.store, { file: 'src/backup.ts', limit: 10 });
      assert.deepEqual(found.map((r) => r.memory.id).sort(), [b.id, c.id].sort(), 'a memory added since is found');

      other.lifecycle.purge([c.id]);
      assert.deepEqual(recall(server.store, { file: 'src/backup.ts', limit: 10 }).map((r) => r.memory.id), [b.id], 'a deleted one is gone');
    } finally {
      server.close();
      other.close();
    }
  });

  it('reads everything again when the log no longer reaches back to what it kept', () => {
    const { server, other } = twoProcesses();
    try {
      const a = other.store.add({ kind: 'decision', title: 'Pool size is 8', source: 'user', files: ['src/pool.ts'] });
      const ra = other.store.reads.rowidsForFile('src/pool.ts', 1)[0]!;
      const [before] = server.store.reads.candidates([ra]);
      other.store.setPin(a.id, 'soft');
      // As the prune trigger would after 65,536 more changes: the entries the server needs are gone.
      other.transaction(() => (other.store as unknown as { db: { exec(sql: string): void } }).db.exec('DELETE FROM memory_changes WHERE seq < (SELECT max(seq) FROM memory_changes)'));
      other.store.setPin(a.id, 'hard');
      const [after] = server.store.reads.candidates([ra]);
      assert.notEqual(after, before);
      assert.equal(after!.pin, 'hard');
    } finally {
      server.close();
      other.close();
    }
  });

  it('prunes itself, keeping at least the last 65,536 changes, and the generation only grows', () => {
    const { server, other } = twoProcesses();
    try {
      const db = (other.store as unknown as { db: import('better-sqlite3').Database }).db;
      const memory = other.store.add({ kind: 'fact', title: 'A fact', source: 'user' });
      const start = other.store.generation();
      other.transaction(() => {
        for (let i = 0; i < 70_000; i++) db.prepare('UPDATE memories SET importance = ? WHERE id = ?').run((i % 10) / 10, memory.id);
      });
      const { n, oldest, newest } = db.prepare('SELECT count(*) AS n, min(seq) AS oldest, max(seq) AS newest FROM memory_changes').get() as { n: number; oldest: number; newest: number };
      assert.equal(newest, start + 70_000);
      assert.equal(server.store.generation(), newest);
      assert.ok(n >= 65_536 && n < 65_536 + 1024, `kept ${n}`);
      assert.equal(newest - oldest + 1, n, 'no holes: a reader can tell whether the log reaches back far enough');
    } finally {
      server.close();
      other.close();
    }
  });
});

describe("recall's scoring rows, read one by one or all at once (the memory server's resident copy)", () => {
  it('are the same either way: tags in order, anchors, globs, every status', () => {
    const env = { ...process.env, ENGRAM_HOME: tempDir('engram-home-') };
    const project = openProject(tempDir('engram-project-'), env);
    try {
      const anchor = { path: 'src/db.ts', range: { startLine: 4, startCharacter: 0, endLine: 9, endCharacter: 1 }, contentHash: 'h', contextBefore: '', contextAfter: '' };
      project.store.add({ kind: 'constraint', title: 'Bound parameters only', source: 'user', pin: 'hard', files: ['src/db.ts', 'src/a.ts'], symbols: ['query', 'Db.open'], anchor });
      project.store.add({ kind: 'constraint', title: 'No console.log in lib', source: 'user', pin: 'soft', meta: { glob: 'lib/**/*.ts' } });
      const forgotten = project.store.add({ kind: 'fact', title: 'Old fact', source: 'claude', files: ['README.md'] });
      project.store.add({ kind: 'decision', title: 'Untagged decision', source: 'user' });
      project.lifecycle.setStatus([forgotten.id], 'forgotten');
      const reader = new CandidateReader((project.store as unknown as { db: import('better-sqlite3').Database }).db);
      const all = reader.all();
      assert.equal(all.length, 4);
      const one = reader.byRowids(all.map((r) => r.rowid));
      assert.deepEqual(all, one);
      const pinned = all.find((r) => r.pin === 'hard')!;
      assert.deepEqual(pinned.files, ['src/a.ts', 'src/db.ts']);
      assert.deepEqual(pinned.symbols, ['Db.open', 'query']);
      assert.deepEqual(pinned.anchor, { path: 'src/db.ts', startLine: 4, endLine: 9, stale: false });
      assert.equal(all.find((r) => r.pin === 'soft')!.glob, 'lib/**/*.ts');
      assert.equal(all.find((r) => r.id === forgotten.id)!.status, 'forgotten');
    } finally {
      project.close();
    }
  });
});
