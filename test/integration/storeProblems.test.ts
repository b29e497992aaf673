import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { openDatabase } from '../../server/src/store/database';
import { databasePathFor } from '../../server/src/paths/engramPaths';
import { ENGRAM_JS, assertBuilt, runEngram, type RunResult } from '../support/engramProcess';
import { resultText, startMcp } from '../support/mcpClient';
import { handOver, mountNamespace, UNPRIVILEGED } from '../support/restrictedStores';
import { isolatedEnv, tempDir } from '../support/tempDirs';

function project(): string {
  const root = tempDir('engram-project-');
  mkdirSync(path.join(root, '.git'));
  return root;
}

/** One line on stderr, naming the problem, and no stack trace. */
function assertOneLine(result: RunResult, command: string, problem: RegExp): void {
  assert.equal(result.code, 1, result.stderr);
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line, not:\n${result.stderr}`);
  assert.match(lines[0]!, new RegExp(`^engram ${command}: `));
  assert.match(lines[0]!, problem);
  assert.doesNotMatch(result.stderr, /\n\s+at |SqliteError|unexpected error/);
}

/** Runs `use` while `file` has `mode`, then gives it back its own (the temporary folders must be removable). */
async function withMode(file: string, mode: number, use: () => Promise<void>): Promise<void> {
  const before = statSync(file).mode & 0o7777;
  chmodSync(file, mode);
  try {
    await use();
  } finally {
    chmodSync(file, before);
  }
}

const sessionStart = (root: string) => JSON.stringify({ session_id: 's1', cwd: root, hook_event_name: 'SessionStart', source: 'startup' });

/** Runs `script` (sh) in the project in a mount namespace of its own; `result(name)` reads what it wrote to "$OUT/<name>.{out,err,code}". */
function inMountNamespace(argv: readonly string[], root: string, env: NodeJS.ProcessEnv, script: readonly string[]): (name: string) => RunResult {
  const out = tempDir('engram-namespace-');
  mkdirSync(env.ENGRAM_HOME!, { recursive: true });
  const run = spawnSync(argv[0]!, [...argv.slice(1), 'sh', '-c', script.join('\n')], { cwd: root, env: { ...env, NODE: process.execPath, ENGRAM: ENGRAM_JS, OUT: out }, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const read = (file: string) => readFileSync(path.join(out, file), 'utf8');
  return (name) => ({ code: Number(read(`${name}.code`)), stdout: read(`${name}.out`), stderr: read(`${name}.err`) });
}

/** The start of such a script: ENGRAM_HOME a 4 MB disk of its own, with one memory, "kept". */
const ON_A_SMALL_DISK = ['set -e', 'mount -t tmpfs -o size=4m tmpfs "$ENGRAM_HOME"', '"$NODE" "$ENGRAM" remember --kind note "kept" > /dev/null'];

/** A line of such a script: runs engram with `args`, its output and exit code saved under `name`. */
const engramAs = (name: string, args: string) => `"$NODE" "$ENGRAM" ${args} > "$OUT/${name}.out" 2> "$OUT/${name}.err"; echo $? > "$OUT/${name}.code"`;

async function exported(env: NodeJS.ProcessEnv, root: string, user?: { uid: number; gid: number }): Promise<string[]> {
  const result = await runEngram(['export'], { env, cwd: root, user });
  assert.equal(result.code, 0, result.stderr);
  return result.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { title: string }).title);
}

describe('a store that cannot be used as it is: one line that says what to do, exit 1, every memory kept', () => {
  before(assertBuilt);

  it('says the database is locked by another process when a writer holds it past the busy timeout', async () => {
    const root = project();
    const env = isolatedEnv({ ENGRAM_BUSY_TIMEOUT_MS: '200' });
    assert.equal((await runEngram(['remember', '--kind', 'note', 'kept'], { env, cwd: root })).code, 0);
    const { db } = openDatabase(databasePathFor(root, env));
    try {
      db.exec('BEGIN EXCLUSIVE');
      const locked = await runEngram(['remember', '--kind', 'note', 'written while locked'], { env, cwd: root });
      assertOneLine(locked, 'remember', /memory database .*memory\.db is locked by another process.*try again/);
      db.exec('ROLLBACK');
    } finally {
      db.close();
    }
    assert.deepEqual(await exported(env, root), ['kept']);
  });

  it('answers an MCP call on a locked store with a one-line error result and no stack trace in its log', async () => {
    const root = project();
    const env = isolatedEnv({ ENGRAM_BUSY_TIMEOUT_MS: '200' });
    const session = await startMcp({ env, project: root });
    const { db } = openDatabase(databasePathFor(root, env));
    try {
      db.exec('BEGIN EXCLUSIVE');
      const result = await session.call('remember', { text: 'written while locked', kind: 'note' });
      db.exec('ROLLBACK');
      assert.equal(result.isError, true);
      assert.match(resultText(result), /^Engram could not run remember: the memory database .* is locked by another process/);
      assert.doesNotMatch(session.stderr(), /\n\s+at /);
      const after = await session.call('remember', { text: 'written once the lock is gone', kind: 'note' });
      assert.equal(after.isError, undefined, resultText(after));
    } finally {
      db.close();
      await session.close();
    }
  });

  describe('read-only and unwritable stores', { skip: process.platform === 'win32' && 'POSIX permissions' }, () => {
    it('says a read-only database file is read-only, and leaves it as it was', async () => {
      const root = project();
      const env = isolatedEnv();
      assert.equal((await runEngram(['remember', '--kind', 'note', 'kept'], { env, cwd: root })).code, 0);
      const file = databasePathFor(root, env);
      handOver(env.HOME!, root);
      const before = readFileSync(file);
      await withMode(file, 0o444, async () => {
        const refused = await runEngram(['remember', '--kind', 'note', 'not stored'], { env, cwd: root, user: UNPRIVILEGED });
        assertOneLine(refused, 'remember', /cannot write the memory database .*memory\.db: it is read-only \(SQLITE_READONLY\); make the file and its folder writable/);
        assert.deepEqual(await exported(env, root, UNPRIVILEGED), ['kept']);
      });
      assert.deepEqual(readFileSync(file), before);
    });

    it('says a database in a folder that cannot be written is read-only', async () => {
      const root = project();
      const env = isolatedEnv();
      assert.equal((await runEngram(['remember', '--kind', 'note', 'kept'], { env, cwd: root })).code, 0);
      const folder = path.dirname(databasePathFor(root, env));
      handOver(env.HOME!, root);
      await withMode(folder, 0o555, async () => {
        const refused = await runEngram(['remember', '--kind', 'note', 'not stored'], { env, cwd: root, user: UNPRIVILEGED });
        assertOneLine(refused, 'remember', /it is read-only \(SQLITE_READONLY_DIRECTORY\)/);
      });
      assert.deepEqual(readdirSync(folder), ['memory.db']);
    });

    it('says ENGRAM_HOME cannot be read, and a hook stays silent (no crash trace from the code cache either)', async () => {
      const root = project();
      const env = isolatedEnv();
      mkdirSync(env.ENGRAM_HOME!, { recursive: true });
      handOver(env.HOME!, root);
      await withMode(env.ENGRAM_HOME!, 0o000, async () => {
        const refused = await runEngram(['stats'], { env, cwd: root, user: UNPRIVILEGED });
        assertOneLine(refused, 'stats', /ENGRAM_HOME \(.*\) cannot be read or written by this user \(EACCES on .*\); fix its permissions, or set ENGRAM_HOME/);
        const hook = await runEngram(['hook', 'session-start'], { env, cwd: root, user: UNPRIVILEGED, stdin: sessionStart(root) });
        assert.deepEqual(hook, { code: 0, stdout: '', stderr: '' });
      });
    });
  });

  it('says ENGRAM_HOME is a file, not a folder; a hook stays silent', async () => {
    const root = project();
    const home = path.join(tempDir(), 'engram-home-file');
    writeFileSync(home, 'not a folder\n');
    const env = isolatedEnv({ ENGRAM_HOME: home });
    const refused = await runEngram(['remember', '--kind', 'note', 'not stored'], { env, cwd: root });
    assertOneLine(refused, 'remember', /ENGRAM_HOME \(.*engram-home-file\) is a file, not a folder; point ENGRAM_HOME at a folder/);
    assert.equal(readFileSync(home, 'utf8'), 'not a folder\n');
    const hook = await runEngram(['hook', 'session-start'], { env, cwd: root, stdin: sessionStart(root) });
    assert.deepEqual(hook, { code: 0, stdout: '', stderr: '' });
  });

  it('names a file in the way of a folder Engram keeps', async () => {
    const root = project();
    const env = isolatedEnv();
    mkdirSync(env.ENGRAM_HOME!, { recursive: true });
    writeFileSync(path.join(env.ENGRAM_HOME!, 'projects'), '');
    const refused = await runEngram(['stats'], { env, cwd: root });
    assertOneLine(refused, 'stats', /\/projects is a file where ENGRAM_HOME \(.*\) needs a folder; move it away/);
  });

  it('says the disk is full, whether the database or its shared memory file cannot grow, and keeps what was stored', (t) => {
    const namespace = mountNamespace();
    if ('unavailable' in namespace) return t.skip(namespace.unavailable);
    const env = isolatedEnv();
    // ENGRAM_HOME is a 4 MB disk: filled to 48 KB once a memory is stored (room for SQLite's shared
    // memory file, not for the write: SQLITE_FULL), then to nothing (the shared memory file cannot
    // be made: SQLITE_IOERR_SHMSIZE); then emptied again.
    const result = inMountNamespace(namespace.argv, project(), env, [
      ...ON_A_SMALL_DISK,
      'room=$(df -k --output=avail "$ENGRAM_HOME" | tail -1)',
      'head -c $(( (room - 48) * 1024 )) /dev/zero > "$ENGRAM_HOME/filler"',
      'set +e',
      engramAs('nearly', 'remember --kind note "one memory too many"'),
      'head -c 1000000 /dev/zero > "$ENGRAM_HOME/filler-2" 2>/dev/null',
      engramAs('full', 'remember --kind note "one memory too many"'),
      'rm "$ENGRAM_HOME"/filler*',
      engramAs('export', 'export'),
    ]);
    for (const attempt of ['nearly', 'full']) assertOneLine(result(attempt), 'remember', /the disk holding the memory database .*memory\.db is full; free some space and try again \(no memory was lost\)/);
    assert.equal(result('export').stderr, '');
    assert.deepEqual(result('export').stdout.trim().split('\n').map((line) => (JSON.parse(line) as { title: string }).title), ['kept']);
  });

  it('says a store on a read-only file system is on one, and leaves it as it was', (t) => {
    const namespace = mountNamespace();
    if ('unavailable' in namespace) return t.skip(namespace.unavailable);
    const env = isolatedEnv();
    const result = inMountNamespace(namespace.argv, project(), env, [
      ...ON_A_SMALL_DISK,
      'mount -o remount,ro "$ENGRAM_HOME"',
      'set +e',
      engramAs('remember', 'remember --kind note "not stored"'),
      engramAs('stats', 'stats'),
      'mount -o remount,rw "$ENGRAM_HOME"',
      engramAs('export', 'export'),
    ]);
    const readOnly = /the memory database .*memory\.db is on a read-only file system, and SQLite must write beside it even to read it; make that file system writable, or copy .* to a writable folder and set ENGRAM_HOME to it/;
    assertOneLine(result('remember'), 'remember', readOnly);
    assertOneLine(result('stats'), 'stats', readOnly);
    assert.deepEqual(result('export').stdout.trim().split('\n').map((line) => (JSON.parse(line) as { title: string }).title), ['kept']);
  });
});
