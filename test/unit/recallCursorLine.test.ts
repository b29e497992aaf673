import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importHistory } from '../../server/src/history/importHistory';
import { openProject } from '../../server/src/project';
import { answerRecall } from '../../server/src/recall/answerRecall';
import { addedLines, isDistinctiveLine } from '../../server/src/recall/lineWriters';
import { gitRepo } from '../support/gitRepo';
import { isolatedEnv } from '../support/tempDirs';

const A_V1 = 'export function a(x: number) {\n  const y = x + 1;\n  return y;\n}\n';
const A_V2 = 'export function a(x: number) {\n  const y = x + 1;\n  if (y > 10) throw new Error("too big");\n  return y;\n}\n';
const A_V3 = 'export function a(x: number) {\n  const y = x + 2;\n  if (y > 10) throw new Error("too big");\n  return y;\n}\n';

describe('recall at a cursor: the changes that wrote the line', () => {
  it('reads the lines a patch adds, and only lines with a word are worth finding', () => {
    assert.deepEqual(addedLines('--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-old\n+  new line;\n context\n+}'), ['new line;', '}']);
    assert.equal(isDistinctiveLine('}'), false);
    assert.equal(isDistinctiveLine('  return y;'), true);
  });

  it('ranks the commit that wrote the line first, then the other changes of its declaration; knowledge of the declaration stays first', async () => {
    const repo = gitRepo();
    repo.write('src/a.ts', A_V1);
    repo.commit('Create a');
    repo.write('src/a.ts', A_V2);
    const guard = repo.commit('Refuse values over ten: downstream tables overflow');
    repo.write('src/a.ts', A_V3);
    const step = repo.commit('Step by two');
    const project = openProject(repo.root, isolatedEnv());
    try {
      await importHistory(project);
      const gotcha = project.store.add({ kind: 'gotcha', title: 'a() is called with negative numbers by the importer', source: 'user', files: ['src/a.ts'], symbols: ['a'] });
      const answer = await answerRecall(project, { file: 'src/a.ts', line: 2, limit: 10 });
      assert.equal(answer.symbol, 'a');
      const order = answer.results.map((r) => (r.memory.kind === 'gotcha' ? 'gotcha' : r.memory.sourceRef?.slice(4, 44)));
      assert.deepEqual(order.slice(0, 2), ['gotcha', guard]);
      assert.ok(order.indexOf(step) > order.indexOf(guard), JSON.stringify(order));
      const reasons = answer.results[1]!.explanation.map((p) => p.reason);
      assert.ok(reasons.includes('wrote line 3'), JSON.stringify(reasons));
      assert.equal(answer.results.find((r) => r.memory.id === gotcha.id)?.explanation.some((p) => p.reason === 'about a'), true);
    } finally {
      project.close();
    }
  });

  it('with a file in focus, a memory of that file outranks one of its folder that only shares more of the words', async () => {
    const repo = gitRepo();
    repo.write('src/a.ts', A_V1);
    repo.commit('start');
    const project = openProject(repo.root, isolatedEnv());
    try {
      const mine = project.store.add({ kind: 'note', title: 'a() keeps its result in the cache', source: 'user', files: ['src/a.ts'] });
      project.store.add({ kind: 'note', title: 'b(): the shared result cache evicts old entries when it is full', source: 'user', files: ['src/b.ts'] });
      const answer = await answerRecall(project, { file: 'src/a.ts', query: 'why does the result cache evict old entries', limit: 10 });
      assert.equal(answer.results[0]?.memory.id, mine.id);
    } finally {
      project.close();
    }
  });
});
