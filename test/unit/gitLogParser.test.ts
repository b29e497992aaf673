import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { logCommits } from '../../server/src/history/git';
import { GitLogParser, type GitCommit } from '../../server/src/history/gitLogParser';
import { dayOf, gitRepo } from '../support/gitRepo';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const ZERO = '0'.repeat(40);
const BLOB1 = '1'.repeat(40);
const BLOB2 = '2'.repeat(40);

/** Bytes as `git log -z --raw --format=%H%x00%P%x00%at%x00%aN%x00%B` writes them. */
function output(...parts: (string | Buffer)[]): Buffer {
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));
}

function header(sha: string, parents: string, seconds: number, author: string, message: string | Buffer): (string | Buffer)[] {
  return [`${sha}\0${parents}\0${seconds}\0${author}\0`, message, '\0'];
}

function parseAll(bytes: Buffer): GitCommit[] {
  const parser = new GitLogParser();
  return [...parser.push(bytes), ...parser.end()];
}

describe('git log parser: -z raw output', () => {
  it("reads a commit's id, parents, author time, author and message, and each file it changed", () => {
    const bytes = output(
      ...header(B, A, 1_700_000_000, 'Ann Example', 'Fix parsing\n\nThe lexer skipped tabs.\n'),
      `\n:100644 100644 ${BLOB1} ${BLOB2} M\0src/lexer.ts\0`,
      `:000000 100755 ${ZERO} ${BLOB1} A\0bin/run\0`,
      `:100644 000000 ${BLOB2} ${ZERO} D\0old.txt\0`,
    );
    const [commit] = parseAll(bytes);
    assert.deepEqual(
      { sha: commit!.sha, parents: commit!.parents, authoredAt: commit!.authoredAt, author: commit!.author, message: commit!.message },
      { sha: B, parents: [A], authoredAt: 1_700_000_000_000, author: 'Ann Example', message: 'Fix parsing\n\nThe lexer skipped tabs.' },
    );
    assert.deepEqual(
      commit!.changes.map((c) => [c.status, c.path, c.oldMode, c.newMode, c.oldBlob, c.newBlob]),
      [
        ['modified', 'src/lexer.ts', 'file', 'file', BLOB1, BLOB2],
        ['added', 'bin/run', 'none', 'executable', ZERO, BLOB1],
        ['deleted', 'old.txt', 'file', 'none', BLOB2, ZERO],
      ],
    );
  });

  it('reads a rename with its old and its new path', () => {
    const bytes = output(...header(B, A, 1, 'A', 'Move\n'), `\n:100644 100644 ${BLOB1} ${BLOB2} R087\0src/a.ts\0src/lib/a.ts\0`);
    const [change] = parseAll(bytes)[0]!.changes;
    assert.deepEqual({ status: change!.status, oldPath: change!.oldPath, path: change!.path }, { status: 'renamed', oldPath: 'src/a.ts', path: 'src/lib/a.ts' });
  });

  it('reads an empty commit as a commit without changes, and the root commit as one without parents', () => {
    const bytes = output(...header(C, B, 3, 'A', 'Nothing\n'), '\0', ...header(B, '', 2, 'A', 'Root\n'), `\n:000000 100644 ${ZERO} ${BLOB1} A\0README\0`);
    const commits = parseAll(bytes);
    assert.deepEqual(
      commits.map((c) => [c.sha, c.parents, c.changes.length]),
      [
        [C, [B], 0],
        [B, [], 1],
      ],
    );
  });

  it('takes a message that looks like a raw record as the message', () => {
    const message = `:100644 100644 ${BLOB1} ${BLOB2} M\n`;
    const bytes = output(...header(B, A, 1, 'A', message), `\n:100644 100644 ${BLOB1} ${BLOB2} M\0x.ts\0`);
    const [commit] = parseAll(bytes);
    assert.equal(commit!.message, message.trimEnd());
    assert.deepEqual(commit!.changes.map((c) => c.path), ['x.ts']);
  });

  it('decodes a message that is not UTF-8 as Latin-1, and gives a path that is not UTF-8 as null', () => {
    const latin1Message = Buffer.from('Caf\xe9 cr\xe8me\n', 'latin1');
    const latin1Path = Buffer.from('docs/r\xe9sum\xe9.md', 'latin1');
    const bytes = output(
      ...header(B, A, 1, 'Zoë', latin1Message),
      `\n:100644 100644 ${BLOB1} ${BLOB2} M\0`,
      latin1Path,
      `\0:100644 100644 ${BLOB1} ${BLOB2} M\0docs/café.md\0`,
    );
    const [commit] = parseAll(bytes);
    assert.equal(commit!.message, 'Café crème');
    assert.equal(commit!.author, 'Zoë');
    assert.deepEqual(commit!.changes.map((c) => c.path), [null, 'docs/café.md']);
  });

  it('gives the same commits however the output is split into chunks', () => {
    const bytes = output(
      ...header(C, B, 2, 'Ann', 'Second\n'),
      `\n:100644 100644 ${BLOB1} ${BLOB2} R100\0a.ts\0b.ts\0`,
      '\0',
      ...header(B, '', 1, 'Ann', 'First\n'),
      `\n:000000 100644 ${ZERO} ${BLOB1} A\0a.ts\0`,
    );
    const whole = parseAll(bytes);
    const parser = new GitLogParser();
    const byteByByte: GitCommit[] = [];
    for (let i = 0; i < bytes.length; i++) byteByByte.push(...parser.push(bytes.subarray(i, i + 1)));
    byteByByte.push(...parser.end());
    assert.deepEqual(byteByByte, whole);
    assert.equal(whole.length, 2);
  });

  it('refuses output that does not start with a commit id', () => {
    assert.throws(() => parseAll(Buffer.from('fatal: bad revision\0')), /expected a commit id/);
  });
});

describe('git log of a real repository', () => {
  it('lists non-merge commits oldest first, with renames found, binary files and empty commits as git sees them', async () => {
    const repo = gitRepo();
    repo.write('src/a.ts', 'export function a() {\n  return 1;\n}\n'.repeat(5));
    const first = repo.commit('Add a');
    repo.git('checkout', '--quiet', '-b', 'topic');
    repo.write('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    const onTopic = repo.commit('Add a logo');
    repo.git('checkout', '--quiet', 'main');
    repo.git('mv', 'src/a.ts', 'src/b.ts');
    const moved = repo.commit('Rename a to b');
    repo.git('-c', 'commit.gpgsign=false', 'merge', '--quiet', '--no-ff', '-m', 'Merge topic', 'topic');
    const empty = repo.commit('Nothing changed', { allowEmpty: true });
    writeFileSync(path.join(repo.root, 'notes.txt'), 'n\n');
    const last = repo.commit('Add notes', { at: dayOf(30) });

    const commits = await logCommits(repo.root, { tip: 'HEAD', exclude: [] });
    assert.deepEqual(commits.map((c) => c.message), ['Add a', 'Add a logo', 'Rename a to b', 'Nothing changed', 'Add notes'], 'the merge is left out');
    assert.deepEqual(commits.map((c) => c.sha), [first, onTopic, moved, empty, last]);
    const byMessage = new Map(commits.map((c) => [c.message, c]));
    assert.deepEqual(byMessage.get('Rename a to b')!.changes.map((c) => [c.status, c.oldPath, c.path]), [['renamed', 'src/a.ts', 'src/b.ts']]);
    assert.deepEqual(byMessage.get('Add a logo')!.changes.map((c) => [c.status, c.path, c.newMode]), [['added', 'logo.png', 'file']]);
    assert.deepEqual(byMessage.get('Nothing changed')!.changes, []);
    assert.equal(byMessage.get('Add notes')!.authoredAt, dayOf(30).getTime());
    assert.equal(byMessage.get('Add notes')!.author, 'Test Author');
  });

  it('takes only the newest commits with max, and none of those an excluded commit reaches', async () => {
    const repo = gitRepo();
    const shas = [0, 1, 2, 3].map((n) => {
      repo.write('f.txt', `${n}\n`);
      return repo.commit(`Commit ${n}`);
    });
    assert.deepEqual((await logCommits(repo.root, { tip: 'HEAD', exclude: [], max: 2 })).map((c) => c.message), ['Commit 2', 'Commit 3']);
    assert.deepEqual((await logCommits(repo.root, { tip: 'HEAD', exclude: [shas[1]!] })).map((c) => c.message), ['Commit 2', 'Commit 3']);
    // A boundary that no longer exists (a rebased branch, collected) is no boundary.
    assert.equal((await logCommits(repo.root, { tip: 'HEAD', exclude: ['f'.repeat(40)] })).length, 4);
  });
});
