import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CaptureFilter } from '../../server/src/capture/captureFilter';
import { planCommit } from '../../server/src/history/commitPlan';
import { GitBlobReader } from '../../server/src/history/gitBlobReader';
import type { FileChange, FileChangeStatus, GitCommit } from '../../server/src/history/gitLogParser';
import { HistoryWriter } from '../../server/src/history/historyWriter';
import { tipPathsOf } from '../../server/src/history/tipPaths';
import { completeMemory } from '../../server/src/memory/newMemory';
import { openProject } from '../../server/src/project';
import { gitRepo } from '../support/gitRepo';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const ZERO = '0'.repeat(40);
const BLOB = '1'.repeat(40);
let shas = 0;

function change(status: FileChangeStatus, path: string, oldPath: string | null = null, modes: Partial<Pick<FileChange, 'oldMode' | 'newMode'>> = {}): FileChange {
  return {
    status,
    path,
    oldPath,
    oldMode: modes.oldMode ?? (status === 'added' ? 'none' : 'file'),
    newMode: modes.newMode ?? (status === 'deleted' ? 'none' : 'file'),
    oldBlob: status === 'added' ? ZERO : BLOB,
    newBlob: status === 'deleted' ? ZERO : BLOB,
  };
}

function commit(...changes: FileChange[]): GitCommit {
  const sha = (++shas).toString(16).padStart(40, '0');
  return { sha, parents: [], authoredAt: shas * 1000, author: 'A', message: `Commit ${shas}`, changes };
}

describe('tip paths: renames followed to the tip of the history read', () => {
  it('tags every earlier change of a file with its path at the tip, through a chain of renames', () => {
    const created = change('added', 'lib/a.js');
    const edited = change('modified', 'lib/a.js');
    const firstMove = change('renamed', 'lib/b.js', 'lib/a.js');
    const editedAfter = change('modified', 'lib/b.js');
    const secondMove = change('renamed', 'src/c.js', 'lib/b.js');
    const moved = tipPathsOf([commit(created), commit(edited), commit(firstMove), commit(editedAfter), commit(secondMove)]);
    assert.deepEqual([created, edited, firstMove, editedAfter].map((c) => moved.get(c)), ['src/c.js', 'src/c.js', 'src/c.js', 'src/c.js']);
    assert.equal(moved.has(secondMove), false, 'already at its tip path');
  });

  it('does not give a file deleted before its name was reused the history of the new file', () => {
    const oldFile = change('modified', 'x.js');
    const deleted = change('deleted', 'x.js');
    const recreated = change('added', 'x.js');
    const movedAway = change('renamed', 'y.js', 'x.js');
    const moved = tipPathsOf([commit(oldFile), commit(deleted), commit(recreated), commit(movedAway)]);
    assert.equal(moved.get(recreated), 'y.js');
    assert.equal(moved.has(oldFile), false);
    assert.equal(moved.has(deleted), false);
  });

  it('keeps apart a file renamed away and a new file created under its old name in the same commit', () => {
    const before = change('modified', 'a.js');
    const moved = tipPathsOf([commit(before), commit(change('renamed', 'b.js', 'a.js'), change('added', 'a.js'))]);
    assert.equal(moved.get(before), 'b.js');
  });
});

describe('commit plan: which files of a commit become memories', () => {
  const root = tempDir();
  const rules = { filter: new CaptureFilter(root, { exclude: ['generated/**'] }), bulkThreshold: 3 };

  it('passes over excluded files, links, submodules and paths that are not UTF-8, and counts them', () => {
    const plan = planCommit(
      commit(
        change('modified', 'src/app.ts'),
        change('modified', 'node_modules/x/index.js'),
        change('added', 'generated/api.ts'),
        change('added', 'link', null, { newMode: 'symlink' }),
        change('modified', 'vendor/lib', null, { oldMode: 'submodule', newMode: 'submodule' }),
        { ...change('modified', 'x'), path: null },
      ),
      new Map(),
      rules,
    );
    assert.equal(plan.kind, 'files');
    assert.deepEqual(plan.kind === 'files' && plan.files.map((f) => f.path), ['src/app.ts']);
    assert.deepEqual(plan.skipped, { excluded: 2, 'not-a-regular-file': 2, 'path-not-utf8': 1 });
  });

  it('makes a commit of more capturable files than the bulk threshold one summary', () => {
    const many = commit(...['a', 'b', 'c', 'd'].map((n) => change('modified', `src/${n}.ts`)), change('modified', 'package-lock.json'));
    const plan = planCommit(many, new Map(), rules);
    assert.equal(plan.kind, 'bulk');
    assert.deepEqual(plan.kind === 'bulk' && plan.tipPaths, ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts']);
    assert.equal(planCommit(commit(...['a', 'b', 'c'].map((n) => change('modified', `src/${n}.ts`))), new Map(), rules).kind, 'files', 'at the threshold: one memory per file');
  });

  it('diffs a created file against nothing and a deleted one to nothing, and a file that became a link as deleted', () => {
    const plan = planCommit(commit(change('added', 'new.ts'), change('deleted', 'gone.ts'), change('type-changed', 'now-a-link', null, { newMode: 'symlink' })), new Map(), rules);
    assert.deepEqual(plan.kind === 'files' && plan.files.map((f) => [f.path, f.before, f.after]), [
      ['new.ts', null, BLOB],
      ['gone.ts', BLOB, null],
      ['now-a-link', BLOB, null],
    ]);
  });
});

describe('blob reader: one git cat-file for a whole import', () => {
  it('gives blobs in the order asked, a blob over the limit only as its size, and an unknown id as missing', async () => {
    const repo = gitRepo();
    repo.write('small.txt', 'small\n');
    repo.write('large.txt', 'x'.repeat(5000));
    repo.commit('Files');
    const small = repo.git('rev-parse', 'HEAD:small.txt');
    const large = repo.git('rev-parse', 'HEAD:large.txt');
    const reader = new GitBlobReader(repo.root, 1000);
    try {
      const [a, b, c, d] = await Promise.all([reader.read(small), reader.read(large), reader.read('f'.repeat(40)), reader.read(small)]);
      assert.deepEqual(a, { kind: 'bytes', bytes: Buffer.from('small\n') });
      assert.deepEqual(b, { kind: 'too-large', size: 5000 });
      assert.deepEqual(c, { kind: 'missing' });
      assert.deepEqual(d, a);
    } finally {
      reader.close();
    }
  });
});

describe('history writer: commits stored whole, once', () => {
  it('stores a commit that another import stored meanwhile only once, and records every commit as handled', () => {
    const env = isolatedEnv();
    const root = tempDir();
    const first = openProject(root, env);
    const second = openProject(root, env);
    try {
      const memory = (sha: string, path: string) => completeMemory({ kind: 'diff', title: `Edited ${path}`, source: 'git', sourceRef: `git:${sha}:${path}`, files: [path] }, 1000);
      const a = 'a'.repeat(40);
      const b = 'b'.repeat(40);
      assert.equal(new HistoryWriter(first).write([{ sha: a, memories: [memory(a, 'x.ts')] }]), 1);
      // The second process read commit `a` before the first stored it.
      assert.equal(new HistoryWriter(second).write([{ sha: a, memories: [memory(a, 'x.ts')] }, { sha: b, memories: [] }]), 0);
      assert.equal(second.store.counts().total, 1);
      assert.deepEqual([...second.history.handled([a, b, 'c'.repeat(40)])].sort(), [a, b]);
    } finally {
      first.close();
      second.close();
    }
  });
});
