import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blamedCommits, blameOfPorcelain } from '../../bench/codeHistory/blame';
import { historyCases } from '../../bench/codeHistory/cases';
import { changedLinesOfPatch, locateAtSplit } from '../../bench/codeHistory/changedLines';
import { commitOfSourceRef, distinctInOrder, meanScore, scoreRanking } from '../../bench/codeHistory/metrics';
import { evenSample, splitCommit } from '../../bench/codeHistory/split';
import { gitRepo } from '../support/gitRepo';

const sha = (c: string) => c.repeat(40);

describe('code-history benchmark: the split', () => {
  it('is the last commit of the first 80 % of the first-parent history', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `c${i}`);
    assert.equal(splitCommit(ten), 'c7');
    assert.equal(splitCommit(['only']), 'only');
    assert.equal(splitCommit(Array.from({ length: 6 }, (_, i) => `c${i}`)), 'c4');
    assert.throws(() => splitCommit([]));
  });

  it('samples evenly and the same way every time', () => {
    const items = Array.from({ length: 10 }, (_, i) => i);
    assert.deepEqual(evenSample(items, 4), [0, 2, 5, 7]);
    assert.deepEqual(evenSample(items, 20), items);
  });
});

describe('code-history benchmark: the lines a later commit changes, found at the split', () => {
  it('reads removed and rewritten lines of a zero-context patch, numbered as in the parent', () => {
    const patch = [
      'diff --git a/lib/a.js b/lib/a.js',
      'index 1111111..2222222 100644',
      '--- a/lib/a.js',
      '+++ b/lib/a.js',
      '@@ -3,2 +3,1 @@ function a() {',
      '-  return one;',
      '-  // two',
      '+  return three;',
      '@@ -10,0 +9,2 @@',
      '+  added();',
      '+  more();',
      'diff --git a/new.js b/new.js',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/new.js',
      '@@ -0,0 +1 @@',
      '+x',
    ].join('\n');
    assert.deepEqual(changedLinesOfPatch(patch), [{ path: 'lib/a.js', lines: [{ line: 3, text: '  return one;' }, { line: 4, text: '  // two' }] }]);
  });

  it('finds each line by its text, the nearest copy when there are several, and leaves out lines without a word', () => {
    const split = ['a();', '}', 'return x;', 'b();', 'c();', 'return x;', '}'].join('\n');
    assert.deepEqual(locateAtSplit([{ line: 5, text: '  return x;' }, { line: 2, text: '}' }, { line: 1, text: 'gone();' }], split), [6]);
    assert.deepEqual(locateAtSplit([{ line: 2, text: 'return x;' }], split), [3]);
  });

  it('maps git blame --porcelain to a commit per line, keeping only imported commits', () => {
    const porcelain = [
      `${sha('a')} 1 1 2`,
      'author A',
      'filename f.js',
      '\tline one',
      `${sha('a')} 2 2`,
      '\tline two',
      `${sha('b')} 5 3 1`,
      'author B',
      '\tline three',
    ].join('\n');
    const blame = blameOfPorcelain(porcelain);
    assert.deepEqual(blame, [sha('a'), sha('a'), sha('b')]);
    assert.deepEqual(blamedCommits(blame, [1, 2, 3], new Set([sha('a'), sha('b')])), [sha('a'), sha('b')]);
    assert.deepEqual(blamedCommits(blame, [3], new Set([sha('a')])), []);
  });

  it('asks, for a later commit, about the commits git blame names at the split for the lines it changes', () => {
    const repo = gitRepo();
    repo.write('lib/a.js', 'function a() {\n  return 1;\n}\n');
    const first = repo.commit('Add a');
    repo.write('lib/a.js', 'function a() {\n  return 2;\n}\n\nfunction b() {\n  return 3;\n}\n');
    const second = repo.commit('Add b, a returns 2');
    repo.write('README.md', 'docs\n');
    repo.commit('Docs');
    repo.write('lib/a.js', 'function a() {\n  return 2;\n}\n\nfunction b() {\n  return 30;\n}\n');
    const split = repo.commit('b returns 30');
    repo.write('lib/a.js', 'function a() {\n  return 20;\n}\n\nfunction b() {\n  return 30;\n}\n');
    const later = repo.commit('a returns 20, the answer');

    const history = historyCases(repo.root, 10);
    assert.equal(history.split, split);
    assert.deepEqual([...history.imported.keys()].sort(), [first, second, repo.git('rev-parse', 'HEAD~2'), split].sort());
    assert.equal(history.laterCommits, 1);
    assert.deepEqual(history.cases, [
      { commit: later, message: 'a returns 20, the answer', file: 'lib/a.js', lines: [2], cursorLine: 2, cursorText: '  return 2;', relevant: [second] },
    ]);
  });
});

describe('code-history benchmark: the metrics', () => {
  it('maps memories to commits and counts a commit once, at its best rank', () => {
    assert.equal(commitOfSourceRef(`git:${sha('a')}:lib/a.js`), sha('a'));
    assert.equal(commitOfSourceRef(`git:${sha('b')}`), sha('b'));
    assert.equal(commitOfSourceRef('code:key'), null);
    assert.equal(commitOfSourceRef(null), null);
    assert.deepEqual(distinctInOrder([sha('a'), null, sha('b'), sha('a'), sha('c')]), [sha('a'), sha('b'), sha('c')]);
  });

  it('scores R@k as the share of right commits in the first k, and the reciprocal rank of the first', () => {
    const relevant = new Set(['x', 'y']);
    assert.deepEqual(scoreRanking(['a', 'x', 'b', 'y'], relevant, 10), { recallAtK: 1, reciprocalRank: 0.5 });
    assert.deepEqual(scoreRanking(['a', 'x', 'b', 'y'], relevant, 3), { recallAtK: 0.5, reciprocalRank: 0.5 });
    assert.deepEqual(scoreRanking(['a'], relevant, 10), { recallAtK: 0, reciprocalRank: 0 });
    assert.throws(() => scoreRanking(['a'], new Set(), 10));
    assert.deepEqual(meanScore([{ recallAtK: 1, reciprocalRank: 0.5 }, { recallAtK: 0, reciprocalRank: 0 }]), { cases: 2, recallAtK: 0.5, mrr: 0.25 });
  });
});
