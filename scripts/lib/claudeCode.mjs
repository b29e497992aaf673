// The real Claude Code CLI, pinned, installed from npm into <repo>/.cache for the end-to-end tests
// that run it offline against a scripted stand-in of the Anthropic API (test/support/claude/).
// Run as a script it installs if needed and prints the path of the `claude` binary.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CACHE_DIR, run, withLock } from './toolchain.mjs';

// Pinned: the wire format, the hook set and the transcript records all change between releases.
export const CLAUDE_CODE_VERSION = '2.1.330';
const PACKAGE = '@anthropic-ai/claude-code';

const INSTALL_DIR = join(CACHE_DIR, `claude-code-${CLAUDE_CODE_VERSION}`);
const PACKAGE_DIR = join(INSTALL_DIR, 'node_modules', ...PACKAGE.split('/'));
const MARKER = join(INSTALL_DIR, '.installed');
// The postinstall replaces this placeholder (a few hundred bytes) with the ~380 MB native binary.
const STUB_MAX_BYTES = 4096;

/** Where the `claude` binary is once installed (npm's bin link to the package's native binary). */
export function claudeCodeBinary() {
  return join(INSTALL_DIR, 'node_modules', '.bin', 'claude');
}

function isNativeBinary(binary) {
  try {
    return statSync(binary).size > STUB_MAX_BYTES;
  } catch {
    return false;
  }
}

function reportedVersion(binary) {
  try {
    return execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    return `(failed: ${error.message.split('\n')[0]})`;
  }
}

/** Installs the pinned CLI on first use (~15 s, ~400 MB); returns the absolute path of `claude`. */
export async function ensureClaudeCode() {
  const binary = claudeCodeBinary();
  if (existsSync(MARKER) && isNativeBinary(binary)) return binary;
  await withLock(`${INSTALL_DIR}.lock`, async () => {
    if (existsSync(MARKER) && isNativeBinary(binary)) return;
    rmSync(INSTALL_DIR, { recursive: true, force: true });
    mkdirSync(INSTALL_DIR, { recursive: true });
    // npm 11's install-script policy: the postinstall only links the platform binary; reviewed.
    writeFileSync(join(INSTALL_DIR, 'package.json'), `${JSON.stringify({ private: true, allowScripts: { [PACKAGE]: true } }, null, 2)}\n`);
    const logFile = `${INSTALL_DIR}.log`;
    process.stderr.write(`toolchain: installing ${PACKAGE}@${CLAUDE_CODE_VERSION} into ${INSTALL_DIR} (log: ${logFile})\n`);
    await run('npm', ['install', '--prefix', INSTALL_DIR, '--no-audit', '--no-fund', `${PACKAGE}@${CLAUDE_CODE_VERSION}`], {
      cwd: INSTALL_DIR,
      logFile,
      env: { npm_config_update_notifier: 'false' },
    });
    if (!isNativeBinary(binary)) {
      // Install scripts were skipped (ignore-scripts in some npmrc): do what the postinstall does.
      await run(process.execPath, [join(PACKAGE_DIR, 'install.cjs')], { cwd: PACKAGE_DIR, logFile: `${logFile}.postinstall` });
    }
    const version = reportedVersion(binary);
    if (!isNativeBinary(binary) || !version.startsWith(CLAUDE_CODE_VERSION)) {
      throw new Error(`${PACKAGE}@${CLAUDE_CODE_VERSION} did not install a working ${binary} (--version: ${version}); see ${logFile}`);
    }
    writeFileSync(MARKER, `${new Date().toISOString()}\n`);
  });
  return binary;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  ensureClaudeCode().then(
    (binary) => process.stdout.write(`${binary}\n`),
    (error) => {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    },
  );
}
