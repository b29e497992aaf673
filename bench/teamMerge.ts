// How often git's merge conflicts when two branches each share memories into one team file, by
// layout: the team file's own (sections, team/teamLayout.ts) against the same sorted lines with no
// section lines. Real git, real merges. `$N --import tsx bench/teamMerge.ts [trials]`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderTeamFile } from '../server/src/team/teamLayout';
import { newTeamId } from '../server/src/team/teamMark';
import type { TeamRecord } from '../server/src/team/teamRecord';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.invalid', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

function record(n: number): TeamRecord {
  const at = new Date(1_700_000_000_000 + n).toISOString();
  return { id: newTeamId(), kind: 'decision', title: `Decision ${n}`, body: `Decision ${n}, with its reason.`, why: null, pin: 'none', importance: 0.5, files: [], symbols: [], anchor: null, meta: {}, source: 'user', createdAt: at, updatedAt: at };
}

const LAYOUTS = {
  sections: (records: readonly TeamRecord[]) => renderTeamFile(records),
  'sorted, no sections': (records: readonly TeamRecord[]) => renderTeamFile(records).split('\n').filter((l) => !l.startsWith('{"section"')).join('\n'),
};

/** One trial: a base of `base` memories, `adds` shared on each of two branches, merged. True when git conflicted. */
function conflicts(render: (records: readonly TeamRecord[]) => string, base: number, adds: number): boolean {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-team-merge-'));
  try {
    const file = path.join(dir, 'memories.jsonl');
    const common = Array.from({ length: base }, (_, i) => record(i));
    git(dir, 'init', '-q', '-b', 'main');
    writeFileSync(file, render(common));
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'base');
    git(dir, 'checkout', '-qb', 'theirs');
    writeFileSync(file, render([...common, ...Array.from({ length: adds }, (_, i) => record(1000 + i))]));
    git(dir, 'commit', '-qam', 'theirs');
    git(dir, 'checkout', '-q', 'main');
    writeFileSync(file, render([...common, ...Array.from({ length: adds }, (_, i) => record(2000 + i))]));
    git(dir, 'commit', '-qam', 'ours');
    try {
      git(dir, 'merge', '-q', '--no-edit', 'theirs');
      return false;
    } catch {
      return true;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const trials = Number(process.argv[2] ?? 40);
for (const adds of [1, 3]) {
  for (const base of [0, 3, 10, 30]) {
    const cells = Object.entries(LAYOUTS).map(([name, render]) => {
      let conflicted = 0;
      for (let t = 0; t < trials; t++) if (conflicts(render, base, adds)) conflicted++;
      return `${name}: ${conflicted}/${trials}`;
    });
    console.log(`${adds} added on each branch to ${base}: ${cells.join(' · ')}`);
  }
}
