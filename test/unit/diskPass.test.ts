import assert from 'node:assert/strict';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CaptureFilter } from '../../server/src/capture/captureFilter';
import { diskPass } from '../../server/src/capture/diskPass';
import { ChangeRecorder } from '../../server/src/capture/recordChange';
import { openProject } from '../../server/src/project';
import { tempDir } from '../support/tempDirs';

function fresh(files: Record<string, string>) {
  const root = path.join(tempDir(), 'p');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  const project = openProject(root, { ...process.env, ENGRAM_HOME: tempDir() });
  const pass = (options: { deadline?: number; bulkThreshold?: number } = {}) =>
    diskPass(project, new ChangeRecorder(project), new CaptureFilter(root), { deadline: options.deadline ?? Infinity, bulkThreshold: options.bulkThreshold ?? 20 });
  /** Writes a file with an mtime one second later than it had, so a pass sees it changed even within one clock tick. */
  const edit = (name: string, text: string) => {
    const file = path.join(root, name);
    writeFileSync(file, text);
    const later = new Date(Date.now() + 1000);
    utimesSync(file, later, later);
  };
  return { root, project, pass, edit };
}

const diffs = (project: ReturnType<typeof openProject>) => [...project.store.all()].filter((m) => m.kind === 'diff' || m.kind === 'summary');

describe('engram ingest --disk: files changed by hand since the last pass', () => {
  it('takes baselines on the first pass, then records a file changed, one created and one deleted as diff memories from the disk', async () => {
    const { project, pass, edit, root } = fresh({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n' });
    const first = await pass();
    assert.deepEqual([first.baselines, first.recorded, first.finished], [2, 0, true]);
    assert.equal(diffs(project).length, 0);

    edit('src/a.ts', 'export const a = 10;\n');
    edit('src/c.ts', 'export const c = 3;\n');
    rmSync(path.join(root, 'src/b.ts'));
    const second = await pass();
    assert.deepEqual([second.recorded, second.bulk, second.finished], [3, false, true]);
    const titles = diffs(project).map((m) => `${m.source} ${m.title}`).sort();
    assert.equal(titles.length, 3);
    assert.ok(titles.every((t) => t.startsWith('disk ')), titles.join('\n'));
    assert.ok(diffs(project).some((m) => m.body.includes('+export const a = 10;')));

    const third = await pass();
    assert.deepEqual([third.recorded, third.baselines], [0, 0], 'nothing twice');
    project.close();
  });

  it('stops at its deadline and leaves the rest to the next pass, which records no baseline as a creation', async () => {
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}.txt`, `line ${i}\n`]));
    const { project, pass } = fresh(files);
    const cut = await pass({ deadline: Date.now() - 1 });
    assert.equal(cut.finished, false);
    const rest = await pass();
    assert.equal(rest.finished, true);
    assert.equal(rest.recorded, 0);
    assert.equal(cut.baselines + rest.baselines, 30);
    assert.equal(diffs(project).length, 0);
    project.close();
  });

  it('records a burst of changes (a checkout) as one summary memory', async () => {
    const files = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`f${i}.txt`, `line ${i}\n`]));
    const { project, pass, edit } = fresh(files);
    await pass();
    for (let i = 0; i < 5; i++) edit(`f${i}.txt`, `line ${i} changed\n`);
    const burst = await pass({ bulkThreshold: 3 });
    assert.deepEqual([burst.bulk, burst.recorded], [true, 5]);
    const memories = diffs(project);
    assert.equal(memories.length, 1);
    assert.equal(memories[0]!.kind, 'summary');
    assert.equal((await pass({ bulkThreshold: 3 })).recorded, 0, 'the files were taken as they are now');
    project.close();
  });
});
