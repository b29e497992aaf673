import assert from 'node:assert/strict';
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { generateMemoryFixture } from '../../bench/memoryFixtures';
import { memoryToRecord } from '../../server/src/memory/record';
import { openProject } from '../../server/src/project';
import { openDatabase } from '../../server/src/store/database';
import { databasePathFor } from '../../server/src/paths/engramPaths';
import { assertBuilt, runEngram } from '../support/engramProcess';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const MEMORIES = 2000;

/** A project whose database lost three leaf pages of its memories table to garbage, as a disk or a crash might leave it. */
interface DamagedStore {
  readonly root: string;
  /** A copy of the damaged database, to put in place for each test. */
  readonly damagedCopy: string;
  /** Each memory's line of an export taken before the damage, by id. */
  readonly healthyLines: ReadonlyMap<string, string>;
  /** Memories that were on the damaged pages (SQLite's dbstat counts their cells). */
  readonly lost: number;
}

/** Builds it in `root` and `work` (folders of the suite: made in a hook, they would go when it ends). */
async function damagedStore(root: string, work: string, env: NodeJS.ProcessEnv): Promise<DamagedStore> {
  mkdirSync(path.join(root, '.git'));
  const fixture = generateMemoryFixture({ memories: MEMORIES, files: 20, seed: 23, now: Date.now() });
  const file = path.join(work, 'memories.jsonl');
  writeFileSync(file, [...fixture.memories].map((m) => `${JSON.stringify(memoryToRecord(m))}\n`).join(''));
  assert.equal((await runEngram(['import', file], { env, cwd: root })).code, 0);
  const project = openProject(root, env);
  const ids = [...project.store.all()].map((m) => m.id);
  project.injections.log('session-1', 'session-start', [{ memoryId: ids[0]!, tokens: 42 }]);
  project.usage.acted(ids[1]!);
  project.close();
  const healthy = (await runEngram(['export'], { env, cwd: root })).stdout.trim().split('\n');
  const healthyLines = new Map(healthy.map((line) => [(JSON.parse(line) as { id: string }).id, line]));

  const database = databasePathFor(root, env);
  const { db } = openDatabase(database);
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const leaves = db.prepare("SELECT pageno, ncell FROM dbstat WHERE name = 'memories' AND pagetype = 'leaf' ORDER BY pageno").all() as { pageno: number; ncell: number }[];
  db.close();
  const damaged = [0.3, 0.6, 0.9].map((at) => leaves[Math.floor(leaves.length * at)]!);
  const fd = openSync(database, 'r+');
  for (const { pageno } of damaged) writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (pageno - 1) * pageSize);
  closeSync(fd);
  const damagedCopy = path.join(work, 'damaged.db');
  copyFileSync(database, damagedCopy);
  return { root, damagedCopy, healthyLines, lost: damaged.reduce((sum, page) => sum + page.ncell, 0) };
}

/** A fresh ENGRAM_HOME holding the damaged database as the project's. */
function withDamagedDatabase(store: DamagedStore): { env: NodeJS.ProcessEnv; file: string } {
  const env = isolatedEnv();
  const file = databasePathFor(store.root, env);
  mkdirSync(path.dirname(file), { recursive: true });
  copyFileSync(store.damagedCopy, file);
  return { env, file };
}

describe('a database whose integrity check fails', () => {
  let store: DamagedStore;
  const [root, work, env] = [tempDir('engram-project-'), tempDir(), isolatedEnv()];
  before(async () => {
    assertBuilt();
    store = await damagedStore(root, work, env);
    assert.ok(store.lost > 0 && store.lost < MEMORIES / 10, `${store.lost} memories on the damaged pages`);
  });

  it('is found by `engram doctor`, which says so, points to --repair and exits 1', async () => {
    const { env } = withDamagedDatabase(store);
    const doctor = await runEngram(['doctor'], { env, cwd: store.root });
    assert.equal(doctor.code, 1, doctor.stdout);
    assert.match(doctor.stdout, /^✗ integrity +the database is damaged: .+; `engram doctor --repair` rebuilds it with every memory that can be read/m);
    assert.match(doctor.stdout, /Engram is NOT working/);
  });

  it('exports every memory that can be read, unchanged, says in one line how many could not be, and exits 1', async () => {
    const { env } = withDamagedDatabase(store);
    const result = await runEngram(['export'], { env, cwd: store.root });
    assert.equal(result.code, 1);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines.length, MEMORIES - store.lost, 'every memory not on a damaged page');
    for (const line of lines) assert.equal(line, store.healthyLines.get((JSON.parse(line) as { id: string }).id), 'as exported before the damage');
    assert.equal(result.stderr.trimEnd().split('\n').length, 1, result.stderr);
    const said = /^engram export: the memory database .*memory\.db is damaged: exported ([\d,]+) memories; ([\d,]+) could not be read \(m_[0-9A-Z]{26}, .* and \d+ more\)\. `engram doctor --repair` rebuilds it/.exec(result.stderr);
    assert.ok(said, result.stderr);
    assert.deepEqual([Number(said[1]!.replace(/,/g, '')), Number(said[2]!.replace(/,/g, ''))], [MEMORIES - store.lost, store.lost]);
  });

  it('is rebuilt by `engram doctor --repair` with every readable memory and record, the damaged file kept aside', async () => {
    const { env, file } = withDamagedDatabase(store);
    const repair = await runEngram(['doctor', '--repair'], { env, cwd: store.root });
    assert.equal(repair.code, 0, repair.stdout);
    const said = /^✓ repair +rebuilt .*memory\.db: ([\d,]+) memories kept, ([\d,]+) could not be read \(m_.*\); (\d+) other records kept; the damaged file is kept as (\S+memory\.db\.corrupt-\S+)$/m.exec(repair.stdout);
    assert.ok(said, repair.stdout);
    assert.deepEqual([Number(said[1]!.replace(/,/g, '')), Number(said[2]!.replace(/,/g, ''))], [MEMORIES - store.lost, store.lost]);
    assert.ok(Number(said[3]) >= 2, 'the injection log and the usage counts');
    assert.ok(existsSync(said[4]!), 'the damaged file is kept');
    assert.match(repair.stdout, /^✓ integrity +SQLite's integrity check found nothing wrong$/m);
    assert.match(repair.stdout, /Engram is healthy\./);

    const exported = await runEngram(['export'], { env, cwd: store.root });
    assert.equal(exported.code, 0, exported.stderr);
    const lines = exported.stdout.trim().split('\n');
    assert.equal(lines.length, MEMORIES - store.lost);
    for (const line of lines) assert.equal(line, store.healthyLines.get((JSON.parse(line) as { id: string }).id));
    const project = openProject(store.root, env);
    try {
      assert.equal(project.injections.forSession('session-1').length, 1);
    } finally {
      project.close();
    }
    const recalled = await runEngram(['recall', '--query', 'return', '--json'], { env, cwd: store.root });
    assert.ok(JSON.parse(recalled.stdout).results.length > 0, 'the full-text index is built again');
    assert.deepEqual(readdirSync(path.dirname(file)).filter((name) => name.startsWith('memory.db.repairing')), []);
  });

  it('is not repaired while another process has it open: the repair says so, and nothing is moved', async () => {
    const { env, file } = withDamagedDatabase(store);
    const { db } = openDatabase(file);
    try {
      const repair = await runEngram(['doctor', '--repair'], { env, cwd: store.root });
      assert.equal(repair.code, 1);
      assert.match(repair.stdout, /^✗ repair +the memory database .*memory\.db is in use by another process .*: close the VS Code windows on this project and stop agents using Engram, then run `engram doctor --repair` again$/m);
    } finally {
      db.close();
    }
    assert.deepEqual(readdirSync(path.dirname(file)).filter((name) => name.includes('corrupt')), []);
  });

  it('leaves a sound database alone', async () => {
    const root = tempDir('engram-project-');
    mkdirSync(path.join(root, '.git'));
    const env = isolatedEnv();
    await runEngram(['remember', '--kind', 'note', 'fine'], { env, cwd: root });
    const repair = await runEngram(['doctor', '--repair'], { env, cwd: root });
    assert.equal(repair.code, 0, repair.stdout);
    assert.match(repair.stdout, /^✓ repair +.*memory\.db passed SQLite's integrity check: nothing to repair$/m);
  });
});
