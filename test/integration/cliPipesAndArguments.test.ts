import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { generateMemoryFixture } from '../../bench/memoryFixtures';
import { memoryToRecord } from '../../server/src/memory/record';
import { ENGRAM_JS, assertBuilt, runEngram } from '../support/engramProcess';
import { isolatedEnv, tempDir } from '../support/tempDirs';

function project(): string {
  const root = tempDir('engram-project-');
  mkdirSync(path.join(root, '.git'));
  return root;
}

describe('the CLI in pipelines and with values that start with a dash', () => {
  before(assertBuilt);

  it('stops quietly when the reader of its output goes away: `engram export | head -1`', async () => {
    const root = project();
    const env = isolatedEnv();
    const fixture = generateMemoryFixture({ memories: 500, files: 10, seed: 5, now: Date.now() });
    const file = path.join(tempDir(), 'memories.jsonl');
    writeFileSync(file, [...fixture.memories].map((m) => `${JSON.stringify(memoryToRecord(m))}\n`).join(''));
    assert.equal((await runEngram(['import', file], { env, cwd: root })).code, 0);
    const out = tempDir();
    // Far more than a pipe holds, so the export is still writing when `head` has gone.
    const pipeline = spawnSync('sh', ['-c', '{ "$NODE" "$ENGRAM" export 2> "$OUT/stderr"; echo $? > "$OUT/code"; } | head -1'], {
      cwd: root,
      env: { ...env, NODE: process.execPath, ENGRAM: ENGRAM_JS, OUT: out },
      encoding: 'utf8',
    });
    assert.equal(pipeline.status, 0, pipeline.stderr);
    assert.match((JSON.parse(pipeline.stdout) as { id: string }).id, /^m_[0-9A-Z]{26}$/, 'head got the first memory');
    assert.equal(readFileSync(path.join(out, 'stderr'), 'utf8'), '');
    assert.equal(readFileSync(path.join(out, 'code'), 'utf8').trim(), '0');
  });

  it('takes a value that starts with a dash: `--query -pool`', async () => {
    const root = project();
    const env = isolatedEnv();
    const id = (await runEngram(['remember', '--kind', 'fact', '--why', '-because the database allows 10 connections', 'The connection pool holds 10 connections'], { env, cwd: root })).stdout.trim();
    const recalled = await runEngram(['recall', '--query', '-pool', '--json'], { env, cwd: root });
    assert.equal(recalled.code, 0, recalled.stderr);
    assert.deepEqual(JSON.parse(recalled.stdout).results.map((m: { id: string; why: string }) => [m.id, m.why]), [[id, '-because the database allows 10 connections']]);
  });

  it('still calls a forgotten value a usage error when the next word is one of its options: `--query --json`', async () => {
    const forgotten = await runEngram(['recall', '--query', '--json'], { env: isolatedEnv(), cwd: project() });
    assert.equal(forgotten.code, 2);
    assert.match(forgotten.stderr, /^engram recall: Option '--query' argument is ambiguous/);
    const number = await runEngram(['recall', '--file', 'x.ts', '--line', '-3'], { env: isolatedEnv(), cwd: project() });
    assert.equal(number.code, 2);
    assert.match(number.stderr, /--line takes a whole number from 1 to 10000000, not "-3"/);
  });
});
