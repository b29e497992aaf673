import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { memoryServerSocketPath } from '../../server/src/socket/socketPath';
import { assertBuilt, runEngram } from '../support/engramProcess';
import { startLspWithSocket, type LspSession } from '../support/lspClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

function project(): string {
  const root = tempDir('engram-socket-project-');
  mkdirSync(path.join(root, '.git'));
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src', 'db.ts'), 'export function query(sql: string) {\n  return sql;\n}\n');
  return root;
}

function serverWithSocket(env: NodeJS.ProcessEnv, root: string, socket: string, ready?: RegExp): Promise<LspSession> {
  return startLspWithSocket(env, root, socket, { windowId: 'socket-test', ready });
}

/** One raw line to the socket, one line back. */
function rawRequest(socket: string, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = connect(socket);
    let reply = '';
    client.setEncoding('utf8');
    client.on('connect', () => client.write(line));
    client.on('data', (d: string) => (reply += d));
    client.on('end', () => resolve(reply));
    client.on('error', reject);
  });
}

function hookLog(env: NodeJS.ProcessEnv): string {
  return readFileSync(path.join(env.ENGRAM_HOME!, 'logs', 'hooks.log'), 'utf8');
}

describe("the memory server answers hooks and `engram recall` on the window's socket", () => {
  before(assertBuilt);

  it('gives a context hook and a recall the same answer the CLI gives alone, from the server', async () => {
    const env = isolatedEnv();
    const root = project();
    await runEngram(['remember', '--kind', 'constraint', '--pin', 'hard', '--file', 'src/db.ts', 'All SQL in src/db.ts goes through bound parameters'], { env, cwd: root });
    await runEngram(['remember', '--kind', 'decision', '--file', 'src/db.ts', 'Retry the watchdog query twice before failing over'], { env, cwd: root });
    const socket = memoryServerSocketPath('socket-test', env.ENGRAM_HOME!);
    const lsp = await serverWithSocket(env, root, socket);
    try {
      assert.ok(existsSync(socket), `listening on ${socket}`);
      // A caller whose own data folder is empty: only the server can know these memories.
      const caller = { ...isolatedEnv(), ENGRAM_SOCKET: socket };
      const alone = await runEngram(['recall', '--query', 'watchdog retry', '--json'], { env, cwd: root });
      const served = await runEngram(['recall', '--query', 'watchdog retry', '--json'], { env: caller, cwd: root });
      assert.equal(served.code, 0, served.stderr);
      assert.deepEqual(JSON.parse(served.stdout), JSON.parse(alone.stdout));
      assert.match(served.stdout, /Retry the watchdog query/);

      const bad = await runEngram(['recall', '--line', '3'], { env: caller, cwd: root });
      assert.equal(bad.code, 2, 'a usage error keeps its exit code through the server');
      assert.match(bad.stderr, /--line needs --file/);

      const prompt = JSON.stringify({ session_id: 's-socket', cwd: root, hook_event_name: 'UserPromptSubmit', prompt: 'Why does src/db.ts retry the watchdog query?' });
      const hook = await runEngram(['hook', 'user-prompt-submit'], { env: { ...caller, ENGRAM_HOME: env.ENGRAM_HOME }, cwd: root, stdin: prompt });
      assert.equal(hook.code, 0, hook.stderr);
      const context = (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
      assert.match(context, /bound parameters/);
      assert.match(context, /watchdog/);
      assert.match(hookLog(env), /user-prompt-submit s-socket ok \d+ms .*\(memory server\)/);
      const again = await runEngram(['hook', 'user-prompt-submit'], { env: { ...caller, ENGRAM_HOME: env.ENGRAM_HOME }, cwd: root, stdin: prompt });
      assert.equal(again.stdout, '', 'the injection log holds across server and CLI: nothing is given twice');

      const garbage = JSON.parse(await rawRequest(socket, '{"argv": 42}\n')) as { handled: boolean; reason: string };
      assert.equal(garbage.handled, false);
      assert.match(garbage.reason, /bad request: argv/);
      const other = JSON.parse(await rawRequest(socket, `${JSON.stringify({ argv: ['recall', '--query', 'x'], cwd: tempDir(), env: {} })}\n`)) as { handled: boolean; reason: string };
      assert.deepEqual(other, { handled: false, reason: 'the project is not open in this window' });
      const ingest = JSON.parse(await rawRequest(socket, `${JSON.stringify({ argv: ['hook', 'stop'], cwd: root, env: {} })}\n`)) as { handled: boolean };
      assert.equal(ingest.handled, false, 'ingesting hooks run in their own process');
      const still = await runEngram(['recall', '--query', 'watchdog', '--json'], { env: caller, cwd: root });
      assert.match(still.stdout, /watchdog/, 'the server goes on after bad requests');
    } finally {
      await lsp.close();
    }
    assert.equal(existsSync(socket), false, 'the socket goes with the server');
  });

  it('runs the command itself when the socket is stale, missing or not for its project', async () => {
    const env = isolatedEnv();
    const root = project();
    await runEngram(['remember', '--kind', 'decision', 'Retry the watchdog query twice'], { env, cwd: root });
    const stale = path.join(tempDir(), 'stale.sock');
    writeFileSync(stale, 'not a socket');
    for (const socket of [stale, path.join(tempDir(), 'missing.sock')]) {
      const run = await runEngram(['recall', '--query', 'watchdog', '--json'], { env: { ...env, ENGRAM_SOCKET: socket }, cwd: root });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Retry the watchdog query/);
      const hook = await runEngram(['hook', 'session-start'], { env: { ...env, ENGRAM_SOCKET: socket }, cwd: root, stdin: JSON.stringify({ session_id: `s-${path.basename(socket)}`, cwd: root, source: 'startup' }) });
      assert.equal(hook.code, 0);
      assert.match(hook.stdout, /watchdog/);
    }
    // A socket folder that is a link (someone else's, in a shared temp directory): no socket, a warning.
    const linked = path.join(tempDir(), 'linked');
    symlinkSync(tempDir(), linked);
    const refused = await serverWithSocket(env, root, path.join(linked, 'engram-x.sock'), /^Cannot answer hooks on .*not a folder of this user's own/);
    try {
      const run = await runEngram(['recall', '--query', 'watchdog', '--json'], { env: { ...env, ENGRAM_SOCKET: path.join(linked, 'engram-x.sock') }, cwd: root });
      assert.match(run.stdout, /Retry the watchdog query/, 'the command runs on its own');
    } finally {
      await refused.close();
    }
    // A server of another window's project: the hook runs here.
    const elsewhere = project();
    const socket = memoryServerSocketPath('socket-test-2', env.ENGRAM_HOME!);
    const lsp = await serverWithSocket(env, elsewhere, socket);
    try {
      const hook = await runEngram(['hook', 'session-start'], { env: { ...env, ENGRAM_SOCKET: socket }, cwd: root, stdin: JSON.stringify({ session_id: 's-elsewhere', cwd: root, source: 'startup' }) });
      assert.match(hook.stdout, /watchdog/);
      assert.match(hookLog(env), /session-start s-elsewhere ok \d+ms/);
      assert.doesNotMatch(hookLog(env), /s-elsewhere ok .*memory server/);
    } finally {
      await lsp.close();
    }
  });
});
