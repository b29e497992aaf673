import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readTeamFile, renderTeamFile } from '../../server/src/team/teamLayout';
import type { TeamId } from '../../server/src/team/teamMark';
import { teamLine, type TeamRecord } from '../../server/src/team/teamRecord';
import { tempDir } from '../support/tempDirs';

function record(id: string, title: string): TeamRecord {
  return { id: id as TeamId, kind: 'constraint', title, body: title, why: null, pin: 'hard', importance: 1, files: ['src/db.ts'], symbols: [], anchor: null, meta: {}, source: 'user', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
}
const id = (first: string, n: number) => `t_${first}${String(n).padStart(19, '0')}`;

describe('the team file', () => {
  it('has one line per memory, sorted by id inside its section, in a fixed key order, with LF endings', () => {
    const text = renderTeamFile([record(id('K', 2), 'b'), record(id('0', 1), 'a'), record(id('K', 1), 'c')]);
    const memories = text.split('\n').filter((l) => l.startsWith('{"id"'));
    assert.deepEqual(memories.map((l) => (JSON.parse(l) as { id: string }).id), [id('0', 1), id('K', 1), id('K', 2)]);
    assert.ok(text.endsWith('\n') && !text.includes('\r'));
    assert.equal(text.split('\n').filter((l) => l.startsWith('{"section"')).length, 32);
    assert.equal(renderTeamFile([record(id('K', 1), 'c'), record(id('0', 1), 'a'), record(id('K', 2), 'b')]), renderTeamFile([record(id('K', 2), 'b'), record(id('0', 1), 'a'), record(id('K', 1), 'c')]));
  });

  it('reads back every good line, and names each bad one by its line number', () => {
    const good = teamLine(record(id('A', 1), 'kept'));
    const twice = teamLine(record(id('B', 1), 'one side'));
    const text = [good, '<<<<<<< HEAD', twice, '=======', teamLine(record(id('B', 1), 'other side')), '>>>>>>> theirs', '{"id":"nope"}', '', `${teamLine(record(id('C', 1), 'crlf'))}\r`].join('\n');
    const read = readTeamFile(text);
    assert.deepEqual([...read.records.keys()], [id('A', 1), id('C', 1)]);
    assert.equal(read.conflicted, true);
    assert.deepEqual(read.problems.map((p) => p.lineNumber), [2, 3, 4, 5, 6, 7]);
    assert.match(read.problems[1]!.message, /is on lines 3, 5/);
    assert.match(read.problems[5]!.message, /^not a memory: id: not a team memory id/);
  });

  it('merges memories added on two branches in different sections without a conflict, and conflicts on one line when both edit one memory', () => {
    const dir = tempDir('engram-team-git-');
    const file = path.join(dir, 'memories.jsonl');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
    const base = [record(id('5', 1), 'shared before')];
    git('init', '-q', '-b', 'main');
    writeFileSync(file, renderTeamFile(base));
    git('add', '.');
    git('commit', '-qm', 'base');
    // Adjacent sections, the first and the last, and either side of the memory already there.
    for (const [ours, theirs] of [['4', '6'], ['0', 'Z'], ['5', '6'], ['4', '5']] as const) {
      git('checkout', '-q', '-b', `theirs-${ours}${theirs}`, 'main');
      writeFileSync(file, renderTeamFile([...base, record(id(theirs, 9), 'theirs')]));
      git('commit', '-qam', 'theirs');
      git('checkout', '-q', '-b', `ours-${ours}${theirs}`, 'main');
      writeFileSync(file, renderTeamFile([...base, record(id(ours, 2), 'ours')]));
      git('commit', '-qam', 'ours');
      git('merge', '-q', '--no-edit', `theirs-${ours}${theirs}`);
      assert.deepEqual([...readTeamFile(readFileSync(file, 'utf8')).records.keys()].sort(), [id(ours, 2), id('5', 1), id(theirs, 9)].sort(), `${ours}/${theirs}`);
    }
    git('checkout', '-q', '-b', 'edit-theirs', 'main');
    writeFileSync(file, renderTeamFile([record(id('5', 1), 'edited there')]));
    git('commit', '-qam', 'theirs');
    git('checkout', '-q', '-b', 'edit-ours', 'main');
    writeFileSync(file, renderTeamFile([record(id('5', 1), 'edited here')]));
    git('commit', '-qam', 'ours');
    assert.throws(() => git('merge', '-q', '--no-edit', 'edit-theirs'));
    const conflicted = readFileSync(file, 'utf8').split('\n');
    const start = conflicted.findIndex((l) => l.startsWith('<<<<<<<'));
    assert.deepEqual(conflicted.slice(start + 1, start + 4).map((l) => l.slice(0, 8)), ['{"id":"t', '=======', '{"id":"t'], 'one line on each side');
  });
});
