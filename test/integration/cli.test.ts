import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { SCHEMA_VERSION } from '../../server/src/store/migrations';
import { generateMemoryFixture } from '../../bench/memoryFixtures';
import { memoryToRecord } from '../../server/src/memory/record';
import { openProject } from '../../server/src/project';
import { TERM_STATS_MIN_ROWS } from '../../server/src/store/termStats';
import { databasePathFor } from '../../server/src/paths/engramPaths';
import { assertBuilt, runEngram } from '../support/engramProcess';
import { isolatedEnv, tempDir } from '../support/tempDirs';

function demoProject(): string {
  const root = tempDir('engram-project-');
  mkdirSync(path.join(root, '.git'));
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src', 'db.ts'), ['import { pool } from "./pool";', '', 'export function query(sql: string, params: unknown[]) {', '  return pool.run(sql, params);', '}', ''].join('\n'));
  return root;
}

describe('the engram CLI', () => {
  before(assertBuilt);

  it('lists every command in --help and exits 0', async () => {
    const { code, stdout } = await runEngram(['--help'], { env: isolatedEnv() });
    assert.equal(code, 0);
    for (const command of ['doctor', 'stats', 'remember', 'recall', 'export', 'import', 'lsp']) assert.match(stdout, new RegExp(`^  ${command} `, 'm'));
  });

  it('starts without loading node:child_process or node:crypto, which only rare paths need (each costs a hook ms)', async () => {
    const env = isolatedEnv();
    const printer = path.join(tempDir(), 'print-modules.js');
    writeFileSync(printer, "process.on('exit', () => process.stderr.write(JSON.stringify(process.moduleLoadList)));\n");
    const { code, stderr } = await runEngram(['--version'], { env: { ...env, NODE_OPTIONS: `--require ${printer}` } });
    assert.equal(code, 0);
    const loaded = JSON.parse(stderr) as string[];
    assert.ok(loaded.includes('NativeModule fs'), 'the list is the real one');
    assert.deepEqual(loaded.filter((m) => /^NativeModule (child_process|crypto)$/.test(m)), []);
  });

  it('answers an unknown command, an unknown flag or a missing argument with usage and exit code 2', async () => {
    const env = isolatedEnv();
    const unknown = await runEngram(['frobnicate'], { env });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "frobnicate"[\s\S]*Usage: engram <command>/);
    const flag = await runEngram(['recall', '--bogus'], { env });
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /Unknown option '--bogus'[\s\S]*Usage: engram recall/);
    const missing = await runEngram(['remember', '--kind', 'note'], { env });
    assert.equal(missing.code, 2);
    const badKind = await runEngram(['remember', '--kind', 'wish', 'text'], { env });
    assert.equal(badKind.code, 2);
    assert.match(badKind.stderr, /--kind must be one of/);
    const nothing = await runEngram([], { env });
    assert.equal(nothing.code, 2);
  });

  it('remembers from a subfolder and recalls the same memory from the project root', async () => {
    const env = isolatedEnv();
    const root = demoProject();
    const remembered = await runEngram(
      ['remember', '--kind', 'constraint', '--file', 'db.ts', '--lines', '3-5', '--pin', 'hard', '--why', 'SQL injection', 'Always pass SQL parameters, never concatenate'],
      { env, cwd: path.join(root, 'src') },
    );
    assert.equal(remembered.code, 0, remembered.stderr);
    const id = remembered.stdout.trim();
    assert.match(id, /^m_[0-9A-Z]{26}$/);

    const recalled = await runEngram(['recall', '--file', 'src/db.ts', '--line', '4', '--json'], { env, cwd: root });
    assert.equal(recalled.code, 0, recalled.stderr);
    const { results } = JSON.parse(recalled.stdout);
    assert.equal(results[0].id, id);
    assert.equal(results[0].pin, 'hard');
    assert.deepEqual(results[0].files, ['src/db.ts']);
    assert.deepEqual(results[0].anchor.range, { startLine: 2, startCharacter: 0, endLine: 4, endCharacter: 1 });

    const byQuery = await runEngram(['recall', '--query', 'concatenate parameters', '--explain', '--json', '--project', root], { env });
    const top = JSON.parse(byQuery.stdout).results[0];
    assert.equal(top.id, id);
    assert.ok(top.explanation.some((p: { reason: string }) => p.reason === 'text match'));
  });

  it('rejects anchoring lines past the end of the file with a clear error', async () => {
    const env = isolatedEnv();
    const root = demoProject();
    const result = await runEngram(['remember', '--kind', 'constraint', '--file', 'src/db.ts', '--lines', '40-41', 'rule'], { env, cwd: root });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /lines 40-41 are outside src\/db\.ts, which has 6 lines/);
  });

  it('exports and imports losslessly, and a second import changes nothing', async () => {
    const root = demoProject();
    const env = isolatedEnv();
    await runEngram(['remember', '--kind', 'decision', '--why', 'workspaces', 'We use pnpm, not npm'], { env, cwd: root });
    await runEngram(['remember', '--kind', 'constraint', '--file', 'src/db.ts', '--lines', '3', '--pin', 'soft', '--symbol', 'query', 'Keep query() synchronous'], { env, cwd: root });
    const exported = await runEngram(['export'], { env, cwd: root });
    assert.equal(exported.stdout.trim().split('\n').length, 2);

    const file = path.join(tempDir(), 'memories.jsonl');
    writeFileSync(file, exported.stdout);
    const other = isolatedEnv();
    const first = await runEngram(['import', file, '--json'], { env: other, cwd: root });
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { added: 2, updated: 0, unchanged: 0, rejected: 0 });
    const second = await runEngram(['import', file, '--json'], { env: other, cwd: root });
    assert.deepEqual(JSON.parse(second.stdout), { added: 0, updated: 0, unchanged: 2, rejected: 0 });
    const reexported = await runEngram(['export'], { env: other, cwd: root });
    assert.equal(reexported.stdout, exported.stdout);
  });

  it('counts the full-text terms after a bulk import, for recall to search the selective ones', async () => {
    const root = demoProject();
    const env = isolatedEnv();
    const fixture = generateMemoryFixture({ memories: TERM_STATS_MIN_ROWS + 100, files: 20, seed: 7, now: Date.now() });
    const file = path.join(tempDir(), 'bulk.jsonl');
    writeFileSync(file, [...fixture.memories].map((m) => `${JSON.stringify(memoryToRecord(m))}\n`).join(''));
    const result = await runEngram(['import', file, '--json'], { env, cwd: root });
    assert.equal(result.code, 0, result.stderr);
    assert.equal((JSON.parse(result.stdout) as { added: number }).added, TERM_STATS_MIN_ROWS + 100);
    const project = openProject(root, env);
    try {
      const counted = project.store.termStats.frequencies(['return']);
      assert.equal(counted?.rows, TERM_STATS_MIN_ROWS + 100);
      assert.ok((counted?.docs.get('return') ?? 0) > 100, 'a common word is counted');
      assert.equal(project.store.termStats.isStale(), false);
      // Into an empty store the secondary indexes were built after the rows: all there again.
      assert.deepEqual(project.deferredIndexes.pending(), []);
      const indexes = (project.store as unknown as { db: import('better-sqlite3').Database }).db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'memor%'").pluck().all();
      for (const name of ['memories_eviction', 'memories_kind_status', 'memories_session', 'memories_session_activity', 'memories_status_updated', 'memories_updated', 'memory_files_path', 'memory_symbols_symbol']) assert.ok(indexes.includes(name), name);
    } finally {
      project.close();
    }
  });

  it('copies what it wrote into the database file itself while another process has it open, not leaving it to the next writer', async () => {
    const root = demoProject();
    const env = isolatedEnv();
    const fixture = generateMemoryFixture({ memories: 2000, files: 20, seed: 11, now: Date.now() });
    const file = path.join(tempDir(), 'bulk.jsonl');
    writeFileSync(file, [...fixture.memories].map((m) => `${JSON.stringify(memoryToRecord(m))}\n`).join(''));
    // Open, as the memory server would be: the import's close is then not the last, and does not checkpoint.
    const server = openProject(root, env);
    try {
      const result = await runEngram(['import', file, '--json'], { env, cwd: root });
      assert.equal(result.code, 0, result.stderr);
      const db = (server.store as unknown as { db: import('better-sqlite3').Database }).db;
      const pages = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
      assert.ok(pages > 1_000_000, `the import wrote ${pages} bytes of pages`);
      assert.equal(statSync(server.databaseFile).size, pages, 'every page is in the database file, none only in the WAL');
      assert.equal(server.store.counts().total, 2000);
    } finally {
      server.close();
    }
  });

  it('imports the good lines of a damaged export, names the bad ones, and exits 1', async () => {
    const root = demoProject();
    const env = isolatedEnv();
    await runEngram(['remember', '--kind', 'note', 'A good memory'], { env, cwd: root });
    const good = (await runEngram(['export'], { env, cwd: root })).stdout.trim();
    const file = path.join(tempDir(), 'damaged.jsonl');
    writeFileSync(file, ['{"truncated": ', good, '\u0000\u00ff binary', '{"id":"m_X","kind":"note"}', ''].join('\n'));
    const other = isolatedEnv();
    const result = await runEngram(['import', file], { env: other, cwd: root });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /added 1, updated 0, unchanged 0, rejected 3/);
    assert.match(result.stderr, /damaged\.jsonl:1: skipped, not JSON/);
    assert.match(result.stderr, /damaged\.jsonl:4: skipped, id: not an Engram memory id/);
  });

  it('names and skips a line that is not UTF-8 text, and imports the others', async () => {
    const root = demoProject();
    const env = isolatedEnv();
    await runEngram(['remember', '--kind', 'note', 'A good memory'], { env, cwd: root });
    const good = (await runEngram(['export'], { env, cwd: root })).stdout.trim();
    const file = path.join(tempDir(), 'latin1.jsonl');
    writeFileSync(file, Buffer.concat([Buffer.from('{"title": "caf'), Buffer.from([0xe9]), Buffer.from(`"}\n${good}\n`)]));
    const result = await runEngram(['import', file, '--json'], { env: isolatedEnv(), cwd: root });
    assert.equal(result.code, 1);
    assert.deepEqual(JSON.parse(result.stdout), { added: 1, updated: 0, unchanged: 0, rejected: 1 });
    assert.match(result.stderr, /latin1\.jsonl:1: skipped, not UTF-8 text/);
  });

  it('reports a missing import file clearly', async () => {
    const result = await runEngram(['import', '/nonexistent/file.jsonl'], { env: isolatedEnv() });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /cannot read \/nonexistent\/file\.jsonl/);
  });

  it('stats --json counts memories by kind, status and pin', async () => {
    const root = demoProject();
    const env = isolatedEnv();
    await runEngram(['remember', '--kind', 'note', 'one'], { env, cwd: root });
    const id = (await runEngram(['remember', '--kind', 'fact', 'two'], { env, cwd: root })).stdout.trim();
    const pinned = await runEngram(['pin', id], { env, cwd: root });
    assert.match(pinned.stdout, /hard-pinned/);
    const stats = JSON.parse((await runEngram(['stats', '--json'], { env, cwd: root })).stdout);
    assert.equal(stats.total, 2);
    assert.equal(stats.byKind.note, 1);
    assert.equal(stats.byKind.fact, 1);
    assert.deepEqual(stats.pinned, { hard: 1, soft: 0 });
    assert.equal(stats.schemaVersion, SCHEMA_VERSION);
    const unknown = await runEngram(['unpin', 'm_00000000000000000000000000'], { env, cwd: root });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no memory with id/);
  });

  it('doctor moves a corrupt database aside, says so, and stays healthy', async () => {
    const root = demoProject();
    const env = isolatedEnv();
    const dbFile = databasePathFor(root, env);
    mkdirSync(path.dirname(dbFile), { recursive: true });
    writeFileSync(dbFile, 'garbage, not SQLite'.repeat(100));
    const result = await runEngram(['doctor', '--json'], { env, cwd: root });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stderr, /is not a readable SQLite database .* moved it to .*memory\.db\.corrupt-/);
    const report = JSON.parse(result.stdout);
    assert.equal(report.ok, true);
    assert.ok(readdirSync(path.dirname(dbFile)).some((f) => f.startsWith('memory.db.corrupt-')));
  });

  it('doctor names the indexes an interrupted import set aside, and the next import builds them', async () => {
    const root = demoProject();
    const env = isolatedEnv();
    const interrupted = openProject(root, env);
    interrupted.deferredIndexes.deferIfEmpty();
    interrupted.close(); // as if `engram import` died before building them
    const doctor = await runEngram(['doctor', '--json'], { env, cwd: root });
    const check = (JSON.parse(doctor.stdout) as { checks: { name: string; warning?: boolean; detail: string }[] }).checks.find((c) => c.name === 'indexes');
    assert.equal(check?.warning, true, doctor.stdout);
    assert.match(check!.detail, /8 indexes an interrupted `engram import` set aside .*memories_kind_status/);
    const file = path.join(tempDir(), 'one.jsonl');
    writeFileSync(file, '');
    const imported = await runEngram(['import', file, '--json'], { env, cwd: root });
    assert.equal(imported.code, 0, imported.stderr);
    const after = await runEngram(['doctor', '--json'], { env, cwd: root });
    assert.equal((JSON.parse(after.stdout) as { checks: { name: string }[] }).checks.some((c) => c.name === 'indexes'), false);
  });

  it('refuses a database from a newer Engram with exit 1 and leaves the file alone', async () => {
    const root = demoProject();
    const env = isolatedEnv();
    await runEngram(['remember', '--kind', 'note', 'kept'], { env, cwd: root });
    const dbFile = databasePathFor(root, env);
    const Database = (await import('better-sqlite3')).default;
    const { findNativeBinding } = await import('../../server/src/store/nativeBinding');
    const db = new Database(dbFile, { nativeBinding: findNativeBinding() });
    db.pragma('user_version = 99');
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const before = readFileSync(dbFile);
    const result = await runEngram(['recall', '--json'], { env, cwd: root });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /schema version 99, newer than this Engram understands/);
    assert.deepEqual(readFileSync(dbFile), before);
    const doctor = await runEngram(['doctor'], { env, cwd: root });
    assert.equal(doctor.code, 1);
    assert.match(doctor.stdout, /✗ database .*schema version 99/);
  });
});
