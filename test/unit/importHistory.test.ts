import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importHistory } from '../../server/src/history/importHistory';
import { openProject, type Project } from '../../server/src/project';
import { gitRepo, type GitRepo } from '../support/gitRepo';
import { isolatedEnv } from '../support/tempDirs';

function repoWithCommits(count: number): GitRepo {
  const repo = gitRepo();
  for (let n = 0; n < count; n++) {
    repo.write(`notes/${n}.md`, `# Note ${n}\n`);
    repo.commit(`Note ${n}`);
  }
  return repo;
}

function withProject<T>(root: string, use: (project: Project) => Promise<T>): Promise<T> {
  const project = openProject(root, isolatedEnv());
  return use(project).finally(() => project.close());
}

describe('history import: runs that stop and runs that follow', () => {
  it('stores whole commits when cancelled, vouches for no tip, and goes on from there at the next run', async () => {
    const repo = repoWithCommits(5);
    await withProject(repo.root, async (project) => {
      let asked = 0;
      const stopped = await importHistory(project, {}, { isCancelled: () => ++asked > 2 });
      assert.deepEqual({ done: stopped.done, memories: stopped.memories, cancelled: stopped.cancelled }, { done: 2, memories: 2, cancelled: true });
      assert.deepEqual(project.history.tips(), []);

      const resumed = await importHistory(project);
      assert.deepEqual({ commits: resumed.commits, done: resumed.done, alreadyImported: resumed.alreadyImported, cancelled: resumed.cancelled }, { commits: 3, done: 3, alreadyImported: 2, cancelled: false });
      assert.equal(project.store.counts().total, 5);
      assert.deepEqual(project.history.tips(), [repo.git('rev-parse', 'HEAD')]);
    });
  });

  it('reads only what came after the tips, and moves the memories stored before with a file renamed since', async () => {
    const repo = gitRepo();
    repo.write('a.ts', 'export function a() {\n  return 1;\n}\n');
    repo.commit('Add a');
    await withProject(repo.root, async (project) => {
      await importHistory(project);
      const mine = project.store.add({ kind: 'note', title: 'a() is hot', source: 'user', files: ['a.ts'], symbols: ['a'] });

      repo.move('a.ts', 'lib/a.ts');
      repo.write('lib/a.ts', 'export function a() {\n  return 2;\n}\n');
      repo.commit('Move a under lib/ and return 2');
      const report = await importHistory(project);
      assert.deepEqual({ commits: report.commits, memories: report.memories, alreadyImported: report.alreadyImported }, { commits: 1, memories: 1, alreadyImported: 0 });
      assert.deepEqual(project.store.get(mine.id)!.files, ['lib/a.ts']);
      assert.deepEqual(
        [...project.store.all()].map((m) => [m.title, m.files]),
        [
          ['Created a in a.ts (+3)', ['lib/a.ts']],
          ['a() is hot', ['lib/a.ts']],
          ['Edited a (+1 \u22121) in lib/a.ts (moved from a.ts)', ['lib/a.ts']],
        ],
      );
    });
  });

  it('imports nothing from a repository without commits, and says which commit HEAD names otherwise', async () => {
    const repo = gitRepo();
    await withProject(repo.root, async (project) => {
      assert.deepEqual(await importHistory(project), { tip: null, commits: 0, done: 0, memories: 0, alreadyImported: 0, summaries: 0, skipped: {}, cancelled: false });
      repo.write('x.txt', 'x\n');
      const sha = repo.commit('First');
      assert.equal((await importHistory(project)).tip, sha);
    });
  });
});
