// Runs code-server (VS Code in a browser) in throw-away profile dirs, for e2e tests and the demo.
// Every run gets its own HOME/XDG dirs so nothing touches the real user's config.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathWithoutNode } from './hideNode.mjs';
import { ensureCodeServer, ensureNode } from './toolchain.mjs';

const START_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 3_000;

// Settings that keep the workbench from opening tabs, panels or notifications of its own
// (welcome page, walkthroughs, AI chat, trust and telemetry prompts) in the middle of a test,
// and make its layout predictable.
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'git.openRepositoryInParentFolders': 'never',
  'typescript.surveys.enabled': false,
  // One Explorer row per folder, so helpers can expand a path segment by segment.
  'explorer.compactFolders': false,
};

// No extension gallery: otherwise the workbench asks open-vsx.org for updates of the built-in
// extensions on start (and would install them where the network allows).
const OFFLINE_ENV = { EXTENSIONS_GALLERY: '{}' };

/** Live servers (process group id → temp dir), killed and removed if the process ends without stopping them. */
const liveServers = new Map();
let exitHandlersInstalled = false;

function killLiveServers() {
  for (const [pgid, tempDir] of liveServers) {
    killGroup(pgid, 'SIGKILL');
    if (!process.env.ENGRAM_E2E_KEEP_TMP) rmSync(tempDir, { recursive: true, force: true });
  }
  liveServers.clear();
}

function installExitHandlers() {
  if (exitHandlersInstalled) return;
  exitHandlersInstalled = true;
  process.on('exit', killLiveServers);
  for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
    process.once(signal, () => {
      killLiveServers();
      process.exit(128 + number);
    });
  }
}

function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {}
}

// kill(-pgid, 0) also succeeds for zombies, which a container's PID 1 may never reap, so
// look at /proc for members that are still running.
function groupHasLiveMembers(pgid) {
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the parenthesised command name: state ppid pgrp ...
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

async function waitForGroupGone(pgid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!groupHasLiveMembers(pgid)) return true;
    await sleep(100);
  }
  return !groupHasLiveMembers(pgid);
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function tempProfileEnv(baseDir, env = {}) {
  const dirs = {
    HOME: env.HOME ?? join(baseDir, 'home'),
    XDG_CONFIG_HOME: env.XDG_CONFIG_HOME ?? join(baseDir, 'xdg-config'),
    XDG_DATA_HOME: env.XDG_DATA_HOME ?? join(baseDir, 'xdg-data'),
    XDG_CACHE_HOME: env.XDG_CACHE_HOME ?? join(baseDir, 'xdg-cache'),
    // Where the window's memory server keeps its mailbox: private, as a login session's is.
    XDG_RUNTIME_DIR: env.XDG_RUNTIME_DIR ?? join(baseDir, 'xdg-runtime'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dirs;
}

function lastLines(file, count = 40) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-count).join('\n');
  } catch {
    return '(no output)';
  }
}

export async function installVsix({ vsix, extensionsDir, userDataDir }) {
  const [node, entry] = await Promise.all([ensureNode(24), ensureCodeServer()]);
  const tempDir = mkdtempSync(join(tmpdir(), 'engram-vsix-install-'));
  try {
    mkdirSync(extensionsDir, { recursive: true });
    mkdirSync(userDataDir, { recursive: true });
    const args = [
      entry,
      '--user-data-dir', resolve(userDataDir),
      '--extensions-dir', resolve(extensionsDir),
      '--install-extension', resolve(vsix),
      '--force',
    ];
    const env = { ...process.env, ...OFFLINE_ENV, ...tempProfileEnv(tempDir) };
    const { code, output } = await new Promise((resolveRun, reject) => {
      const child = spawn(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolveRun({ code, output }));
    });
    // The VS Code CLI has exited 0 after printing "Failed Installing Extensions" in some versions.
    if (code !== 0 || /Failed Installing Extensions|Error:/i.test(output)) {
      throw new Error(`installing ${vsix} into ${extensionsDir} failed (exit ${code}):\n${output.trim()}`);
    }
    return output.trim();
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
}

/**
 * Starts code-server on 127.0.0.1 with a quiet profile and waits until it answers HTTP.
 * Resolves to {url, port, folderUrl, logFile, tempDir, pid, stop}.
 */
export async function startCodeServer(options = {}) {
  const [node, entry] = await Promise.all([ensureNode(24), ensureCodeServer()]);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(node, entry, options);
    } catch (error) {
      // A port picked by freePort() can be taken by someone else before code-server binds it.
      if (options.port || attempt >= 3 || !/EADDRINUSE/.test(error.message)) throw error;
    }
  }
}

async function startOnce(node, entry, {
  folder,
  extensionsDir,
  userDataDir,
  env = {},
  port = 0,
  smokeTestDriver = false,
  settings = {},
  extraArgs = [],
  hideNode = false,
}) {
  const tempDir = mkdtempSync(join(tmpdir(), 'engram-code-server-'));
  userDataDir = resolve(userDataDir ?? join(tempDir, 'user-data'));
  extensionsDir = resolve(extensionsDir ?? join(tempDir, 'extensions'));
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(
    join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2) + '\n',
  );
  if (!port) port = await freePort();

  const logFile = join(tempDir, 'code-server.log');
  const args = [
    entry,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    ...(smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ...extraArgs,
    ...(folder ? [resolve(folder)] : []),
  ];
  const childEnv = { ...process.env, ...OFFLINE_ENV, ...env, ...tempProfileEnv(tempDir, env) };
  const logFd = openSync(logFile, 'a');
  let child;
  try {
    // Own process group: code-server leaves a file watcher and other helpers behind otherwise.
    // hideNode: code-server itself runs on its own Node (an absolute path), as a packaged one does.
    if (hideNode) childEnv.PATH = pathWithoutNode(join(tempDir, 'path-without-node'), childEnv);
    child = spawn(node, args, { env: childEnv, stdio: ['ignore', logFd, logFd], detached: true });
  } finally {
    closeSync(logFd);
  }
  const pgid = child.pid;
  liveServers.set(pgid, tempDir);
  installExitHandlers();
  let exited = null;
  child.on('exit', (code, signal) => (exited = signal ?? `exit ${code}`));
  child.on('error', (error) => (exited = error.message));

  let stopped;
  const stop = () => {
    stopped ??= (async () => {
      killGroup(pgid, 'SIGTERM');
      if (!(await waitForGroupGone(pgid, STOP_GRACE_MS))) {
        killGroup(pgid, 'SIGKILL');
        await waitForGroupGone(pgid, STOP_GRACE_MS);
      }
      liveServers.delete(pgid);
      if (!process.env.ENGRAM_E2E_KEEP_TMP) rmSync(tempDir, { recursive: true, force: true });
    })();
    return stopped;
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exited) {
      const output = lastLines(logFile);
      await stop();
      throw new Error(`code-server exited during startup (${exited}):\n${output}`);
    }
    if (await answersHttp(`${url}/healthz`)) break;
    if (Date.now() > deadline) {
      const output = lastLines(logFile);
      await stop();
      throw new Error(`code-server did not answer on ${url} within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
    }
    await sleep(150);
  }

  const folderUrl = folder ? `${url}/?folder=${encodeURIComponent(resolve(folder)).replace(/%2F/g, '/')}` : url;
  return { url, port, folderUrl, logFile, tempDir, userDataDir, extensionsDir, pid: pgid, stop };
}

/**
 * Workbench URL that loads an extension from source (like `code --extensionDevelopmentPath`) and
 * runs its tests in the extension host (`--extensionTestsPath`, a module exporting `run()`).
 * Needs a server started with smokeTestDriver; the end is reported via window.codeAutomationExit.
 */
export function extensionTestsUrl(server, { folder, extensionDevelopmentPath, extensionTestsPath }) {
  const remote = (path) => `vscode-remote://127.0.0.1:${server.port}${resolve(path)}`;
  const payload = [['extensionDevelopmentPath', remote(extensionDevelopmentPath)]];
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  const url = new URL(server.url);
  if (folder) url.searchParams.set('folder', resolve(folder));
  url.searchParams.set('payload', JSON.stringify(payload));
  return url.href;
}

/** Whether any process of that group (e.g. a stopped code-server's) is still running. */
export function processGroupAlive(pgid) {
  return groupHasLiveMembers(pgid);
}

function answersHttp(url) {
  return new Promise((resolveAnswer) => {
    const req = request(url, { timeout: 1000 }, (res) => {
      res.resume();
      resolveAnswer(res.statusCode > 0 && res.statusCode < 500);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolveAnswer(false));
    req.end();
  });
}
