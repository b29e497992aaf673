// Runs the real Claude Code CLI against the scripted stand-in API with nothing shared with the
// machine: its own HOME, config and temp folders, and a network namespace that has only loopback.
//
// The stand-in runs in this process on a Unix socket (a filesystem path, so it is reachable from
// any network namespace). Inside `unshare -n`, a small bridge brings loopback up, listens on
// 127.0.0.1, forwards each connection to that socket, and runs `claude` pointed at itself. Rules
// can therefore stay in-process, closures included, and requests are recorded here as they come.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeProjectFolder } from '../../../server/src/transcripts/projectFolder';
import { tempDir } from '../tempDirs';
import { startStandInApi, type MessagesRequest, type RecordedRequest, type StandInScript } from './standInApi';

/** One isolated Claude Code installation state; pass it to several runs to share sessions (`--continue`). */
export interface ClaudeHome {
  readonly root: string;
  /** HOME of the CLI and of its hooks. */
  readonly home: string;
  /** CLAUDE_CONFIG_DIR: .claude.json, settings.json, projects/<encoded cwd>/<session>.jsonl. */
  readonly configDir: string;
  /** TMPDIR and CLAUDE_CODE_TMPDIR. */
  readonly tmpDir: string;
  readonly runtimeDir: string;
}

export interface RunClaudeOptions {
  /** The project folder the CLI runs in. */
  readonly cwd: string;
  /** Arguments for `claude`, e.g. ['-p', 'prompt', '--output-format', 'json']. */
  readonly args: readonly string[];
  readonly script: StandInScript;
  /** Reuse the state of earlier runs; default: a fresh home, removed when the test file ends. */
  readonly home?: ClaudeHome;
  /** Added to the CLI's environment, after the isolation variables (so they can be overridden). */
  readonly env?: Readonly<Record<string, string>>;
  /** Written to a file and passed with `--settings` (e.g. hooks, permissions). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Default 60 s; the whole process group is killed after it. */
  readonly timeoutMs?: number;
  /** A PATH with no `node` on it for the CLI and its hooks (scripts/lib/hideNode.mjs). */
  readonly hideNode?: boolean;
}

export interface ClaudeRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Every request the stand-in got during this run, in order. */
  readonly requests: readonly RecordedRequest[];
  /** The bodies of this run's `POST /v1/messages` requests, in order. */
  readonly modelRequests: readonly MessagesRequest[];
  /** Indices of script rules that answered nothing. */
  readonly unusedRules: readonly number[];
  readonly home: ClaudeHome;
  readonly configDir: string;
  /** From the requests' x-claude-code-session-id header. */
  readonly sessionId: string | undefined;
  /** `<configDir>/projects/<encoded cwd>/<sessionId>.jsonl`, when it exists. */
  readonly transcriptPath: string | undefined;
  /** All session transcripts of this cwd in the home (sub-agents excluded), oldest first. */
  readonly transcriptPaths: readonly string[];
  /** Whether the run had a loopback-only network namespace. */
  readonly networkIsolated: boolean;
  readonly durationMs: number;
}

export function createClaudeHome(): ClaudeHome {
  const root = tempDir('engram-claude-');
  const home: ClaudeHome = {
    root,
    home: path.join(root, 'home'),
    configDir: path.join(root, 'config'),
    tmpDir: path.join(root, 'tmp'),
    runtimeDir: path.join(root, 'run'),
  };
  for (const dir of [home.home, home.configDir, home.tmpDir, home.runtimeDir]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return home;
}

export function projectTranscriptDir(home: ClaudeHome, cwd: string): string {
  return path.join(home.configDir, 'projects', encodeProjectFolder(realpathSync(cwd)));
}

// Runs as `node -e BRIDGE -- <socket> <ip command or ''> <claude> <args…>`; plain CommonJS, no tsx.
const BRIDGE = `
const net = require('node:net');
const os = require('node:os');
const { spawn, spawnSync } = require('node:child_process');
const [socketPath, ipCommand, binary, ...args] = process.argv.slice(1);
if (ipCommand) {
  const up = spawnSync(ipCommand, ['link', 'set', 'lo', 'up'], { stdio: 'inherit' });
  if (up.status !== 0) { console.error('claude harness: could not bring loopback up with ' + ipCommand); process.exit(125); }
}
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  const close = () => { client.destroy(); upstream.destroy(); };
  client.on('error', close);
  upstream.on('error', close);
  client.pipe(upstream).pipe(client);
});
server.listen(0, '127.0.0.1', () => {
  const env = { ...process.env, ANTHROPIC_BASE_URL: 'http://127.0.0.1:' + server.address().port };
  const child = spawn(binary, args, { stdio: 'inherit', env });
  child.on('error', (error) => { console.error('claude harness: ' + error.message); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
});
`;

let claudeBinary: Promise<string> | undefined;
let isolation: NetworkIsolation | null | undefined;

interface NetworkIsolation {
  readonly unshare: string;
  readonly ip: string;
  /**
   * `-n` as root, else `-r -n` (a user namespace, where we are root); plus a PID namespace whose
   * init is the bridge, so that when it ends the kernel ends every hook and tool the CLI left behind.
   */
  readonly flags: readonly string[];
}

function findCommand(name: string): string | undefined {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/sbin', '/usr/bin', '/bin']) {
    const candidate = path.join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** How to make a loopback-only network namespace here, or null (after saying so once) if we cannot. */
function networkIsolation(): NetworkIsolation | null {
  if (isolation !== undefined) return isolation;
  const unshare = findCommand('unshare');
  const ip = findCommand('ip');
  let problem = '';
  if (!unshare) problem = 'unshare is not installed (util-linux)';
  else if (!ip) problem = 'ip is not installed (apt-get install iproute2)';
  else {
    const pidNamespace = ['-p', '-f', '--kill-child'];
    const attempts = (process.getuid?.() === 0 ? [['-n'], ['-r', '-n']] : [['-r', '-n']]).map((flags) => [...flags, ...pidNamespace]);
    const errors: string[] = [];
    for (const flags of attempts) {
      const probe = spawnSync(unshare, [...flags, ip, 'link', 'set', 'lo', 'up'], { encoding: 'utf8' });
      if (probe.status === 0) {
        isolation = { unshare, ip, flags };
        return isolation;
      }
      errors.push(`unshare ${flags.join(' ')}: ${(probe.stderr || probe.error?.message || `exit ${probe.status}`).trim()}`);
    }
    problem = `no network namespace permitted (${errors.join('; ')})`;
  }
  process.stderr.write(`claude harness: ${problem}; running Claude Code without a network namespace (still only on 127.0.0.1)\n`);
  isolation = null;
  return isolation;
}

let runCount = 0;

export async function runClaude(options: RunClaudeOptions): Promise<ClaudeRun> {
  // Before any await: node:test ties the home's clean-up to the test that is running right now.
  const home = options.home ?? createClaudeHome();
  // Dynamic import: this file is CommonJS for TypeScript, the installer is an ES module.
  claudeBinary ??= import('../../../scripts/lib/claudeCode.mjs').then((m) => m.ensureClaudeCode());
  const binary = await claudeBinary;
  const cwd = realpathSync(options.cwd);
  const run = ++runCount;

  const socketPath = path.join(home.root, `api-${run}.sock`);
  if (socketPath.length > 100) throw new Error(`socket path too long for a Unix socket (${socketPath.length} chars): ${socketPath}; use a shorter TMPDIR`);
  const args = [...options.args];
  if (options.settings) {
    const settingsFile = path.join(home.root, `settings-${run}.json`);
    writeFileSync(settingsFile, JSON.stringify(options.settings, null, 2));
    args.unshift('--settings', settingsFile);
  }

  const isolated = networkIsolation();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    SHELL: findCommand('bash') ?? '/bin/sh',
    HOME: home.home,
    CLAUDE_CONFIG_DIR: home.configDir,
    TMPDIR: home.tmpDir,
    CLAUDE_CODE_TMPDIR: home.tmpDir,
    XDG_RUNTIME_DIR: home.runtimeDir,
    XDG_CONFIG_HOME: path.join(home.home, '.config'),
    XDG_DATA_HOME: path.join(home.home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home.home, '.cache'),
    ANTHROPIC_API_KEY: 'sk-ant-stand-in-not-a-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    // As root (also the mapped root of `unshare -r`), --dangerously-skip-permissions is refused outside a sandbox.
    ...(process.getuid?.() === 0 || isolated?.flags.includes('-r') ? { IS_SANDBOX: '1' } : {}),
    ...options.env,
  };

  const bridge = [process.execPath, '-e', BRIDGE, '--', socketPath, isolated?.ip ?? '', binary, ...args];
  const command = isolated ? [isolated.unshare, ...isolated.flags, ...bridge] : bridge;
  if (options.hideNode) {
    const { pathWithoutNode } = await import('../../../scripts/lib/hideNode.mjs');
    env.PATH = pathWithoutNode(path.join(home.root, `path-without-node-${run}`), env);
  }

  const standIn = await startStandInApi(options.script, { socketPath });
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? 60_000;
  let outcome: { exitCode: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };
  try {
    outcome = await new Promise((resolve, reject) => {
      // Own process group, so a timeout can end the CLI together with its hooks and tools.
      const child = spawn(command[0]!, command.slice(1), { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const timer = setTimeout(() => {
        killGroup(child.pid, 'SIGKILL');
        reject(new Error(`claude ${args.join(' ').slice(0, 200)} did not finish in ${timeoutMs} ms\n--- stdout ---\n${stdout.slice(-3000)}\n--- stderr ---\n${stderr.slice(-3000)}`));
      }, timeoutMs);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (exitCode, signal) => {
        clearTimeout(timer);
        // Hooks or tools the CLI left running in the background.
        killGroup(child.pid, 'SIGKILL');
        resolve({ exitCode, signal, stdout, stderr });
      });
    });
  } finally {
    await standIn.close();
  }

  const modelRequests = standIn.messagesRequests();
  const sessionHeader = [...standIn.requests].reverse().find((r) => r.headers['x-claude-code-session-id'])?.headers['x-claude-code-session-id'];
  const sessionId = typeof sessionHeader === 'string' ? sessionHeader : undefined;
  const transcriptDir = projectTranscriptDir(home, cwd);
  const transcriptPaths = existsSync(transcriptDir)
    ? readdirSync(transcriptDir)
        .filter((name) => name.endsWith('.jsonl'))
        .map((name) => path.join(transcriptDir, name))
        .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
    : [];
  const ownTranscript = sessionId ? path.join(transcriptDir, `${sessionId}.jsonl`) : undefined;
  return {
    ...outcome,
    requests: [...standIn.requests],
    modelRequests,
    unusedRules: standIn.unusedRules(),
    home,
    configDir: home.configDir,
    sessionId,
    transcriptPath: ownTranscript && existsSync(ownTranscript) ? ownTranscript : undefined,
    transcriptPaths,
    networkIsolated: isolated !== null,
    durationMs: Date.now() - started,
  };
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
