import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { hookCommand, mcpServerEntry } from '../../server/src/claude/connector';
import { cmdShimText, launcherPath, writeShim, type ShimTarget } from '../../server/src/claude/shim';
import { assertBuilt, ENGRAM_JS, REPO_ROOT } from '../support/engramProcess';
import { isolatedEnv, tempDir } from '../support/tempDirs';

interface Doctor {
  readonly ok: boolean;
  readonly checks: readonly { name: string; ok: boolean; detail: string }[];
}

/** A PATH with `node` on it, or with none (the shim itself needs no other program). */
function pathWith(node?: string): string {
  const dir = path.join(tempDir(), 'bin');
  mkdirSync(dir);
  if (node) symlinkSync(node, path.join(dir, 'node'));
  return dir;
}

/** Runs a command line the way Claude Code runs a hook: through a shell, with the hook's stdin. */
function shell(shellName: 'sh' | 'bash', command: string, env: NodeJS.ProcessEnv, stdin = '') {
  const result = spawnSync(shellName === 'sh' ? '/bin/sh' : '/bin/bash', ['-c', command], { env, input: stdin, encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function runtimeDetail(stdout: string): string {
  return (JSON.parse(stdout) as Doctor).checks.find((c) => c.name === 'runtime')!.detail;
}

// The shim is what hooks and MCP registrations run: these run it for real, from a data folder
// whose path has spaces, parentheses, `&`, a quote and non-ASCII, with and without a `node`.
describe('the engram shim: a working runtime, whatever is installed', () => {
  let node20: string;
  const modern = process.execPath;
  const awkwardHome = path.join(tempDir(), "Jürgen's (work) & co", 'engram home');
  const env = isolatedEnv({ ENGRAM_HOME: awkwardHome });
  const target: ShimTarget = { engramJs: ENGRAM_JS, runtime: modern, origin: 'editor' };
  let shim: string;

  before(async () => {
    assertBuilt();
    const toolchain = await import(path.join(REPO_ROOT, 'scripts', 'lib', 'toolchain.mjs'));
    node20 = await toolchain.ensureNode(20);
    shim = writeShim(env, target).path;
  });

  for (const shellName of ['sh', 'bash'] as const) {
    it(`runs on the editor's runtime when there is no node on PATH (${shellName})`, () => {
      const command = hookCommand(env, 'x').replace(/ hook x$/, ' doctor --runtime --json');
      const result = shell(shellName, command, { ...env, PATH: pathWith() });
      assert.equal(result.code, 0, result.stderr);
      assert.match(runtimeDetail(result.stdout), new RegExp(`^Node ${process.version} at ${modern.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(the editor's own runtime\\)$`));
    });
  }

  it('passes over a `node` on PATH that cannot be run (bash still names it)', () => {
    const dir = path.join(tempDir(), 'bin');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'node'), '', { mode: 0o644 });
    const result = shell('bash', `${hookCommand(env, 'x').replace(/ hook x$/, '')} doctor --runtime --json`, { ...env, PATH: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(runtimeDetail(result.stdout), /\(the editor's own runtime\)$/);
  });

  it('prefers node on PATH, and hands over to the editor runtime when that node is too old', () => {
    const onPath = shell('sh', `${hookCommand(env, 'x').replace(/ hook x$/, '')} doctor --runtime --json`, { ...env, PATH: pathWith(modern) });
    assert.equal(onPath.code, 0, onPath.stderr);
    assert.match(runtimeDetail(onPath.stdout), /\(`node` on PATH\)$/);
    const old = shell('sh', `${hookCommand(env, 'x').replace(/ hook x$/, '')} doctor --runtime --json`, { ...env, PATH: pathWith(node20) });
    assert.equal(old.code, 0, old.stderr);
    assert.match(runtimeDetail(old.stdout), /^Node v2[2-9]\..*\(the editor's own runtime\)$/);
  });

  it('answers a hook through the hand-over, stdin and all', () => {
    const input = JSON.stringify({ session_id: 's-1', cwd: tempDir(), hook_event_name: 'SessionStart', source: 'startup' });
    const result = shell('bash', hookCommand(env, 'session-start'), { ...env, PATH: pathWith(node20) }, input);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    const log = readFileSync(path.join(awkwardHome, 'logs', 'hooks.log'), 'utf8');
    assert.match(log, /session-start s-1 /);
    assert.doesNotMatch(log, /refused/);
  });

  it('starts the MCP server from the launcher, as Windows does with no shell', () => {
    const entry = mcpServerEntry('/work/repo', env, target, 'win32') as { command: string; args: string[]; env: Record<string, string> };
    assert.equal(entry.command, modern);
    assert.deepEqual(entry.args, [launcherPath(env), 'mcp', '--project', '/work/repo']);
    assert.deepEqual(entry.env, { ELECTRON_RUN_AS_NODE: '1', ENGRAM_RUNTIME_ORIGIN: 'editor' });
    const result = spawnSync(entry.command, [launcherPath(env), 'doctor', '--runtime', '--json'], { env: { ...env, ...entry.env }, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.match(runtimeDetail(result.stdout), /\(the editor's own runtime\)$/);
    assert.deepEqual(mcpServerEntry('/work/repo', env, target, 'linux'), { type: 'stdio', command: shim, args: ['mcp', '--project', '/work/repo'], env: {} });
  });

  it('writes a cmd.exe shim that keeps %, &, parentheses and non-ASCII paths intact', () => {
    const text = cmdShimText({ engramJs: 'C:\\Users\\Jürgen (x) & co\\100%\\engram.js', runtime: 'C:\\Program Files\\Microsoft VS Code\\Code.exe', origin: 'editor' });
    assert.ok(text.split('\r\n').every((line) => !line.includes('\n')), 'CRLF line endings only');
    assert.match(text, /\r\nchcp 65001 >nul\r\nset "ENGRAM_JS=C:\\Users\\Jürgen \(x\) & co\\100%%\\engram\.js"\r\n/);
    assert.match(text, /set "ENGRAM_FALLBACK_RUNTIME=C:\\Program Files\\Microsoft VS Code\\Code\.exe"/);
    assert.match(text, /\r\n"%ENGRAM_FALLBACK_RUNTIME%" "%ENGRAM_JS%" %\*\r\n$/);
  });
});

describe('engram on a Node.js too old for its SQLite', () => {
  let node20: string;
  before(async () => {
    assertBuilt();
    const toolchain = await import(path.join(REPO_ROOT, 'scripts', 'lib', 'toolchain.mjs'));
    node20 = await toolchain.ensureNode(20);
  });

  it('refuses a command with one line and exit 1, never a crash', () => {
    const result = spawnSync(node20, [ENGRAM_JS, 'recall', '--query', 'x'], { env: isolatedEnv(), encoding: 'utf8' });
    assert.equal(result.signal, null);
    assert.equal(result.status, 1);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^engram: Engram needs Node\.js 22\.14 or newer; this is Node 20\.\d+\.\d+ \(.*\)\. Install a current Node\.js, or run Engram from VS Code ≥ 1\.101, whose own runtime it uses\.\n$/);
  });

  it('gives Claude Code nothing from a hook, exit 0, and says why in the hook log', () => {
    const env = isolatedEnv();
    const result = spawnSync(node20, [ENGRAM_JS, 'hook', 'user-prompt-submit'], { env, input: '{"session_id":"s","prompt":"hi"}', encoding: 'utf8' });
    assert.deepEqual([result.status, result.stdout, result.stderr], [0, '', '']);
    assert.match(readFileSync(path.join(env.ENGRAM_HOME!, 'logs', 'hooks.log'), 'utf8'), /user-prompt-submit - refused 0ms Engram needs Node\.js 22\.14 or newer/);
  });
});
