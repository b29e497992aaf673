import { existsSync } from 'node:fs';
import path from 'node:path';
import { logHook } from '../hooks/hookLog';
import { RUNTIME_ORIGIN_ENV } from '../runtime/runtimeOrigin';
import { canLoadSqlite, MIN_NODE_VERSION } from '../runtime/runtimeRequirement';
import type { CliIO } from './command';

/**
 * The runtime the memory server runs on (the editor's own, as a rule), which the shim names when
 * it starts `engram` on a `node` from PATH: if that one is too old, the command runs there instead.
 */
export const FALLBACK_RUNTIME_ENV = 'ENGRAM_FALLBACK_RUNTIME';
/** How the status bar and `engram doctor` should name that runtime (a RuntimeOrigin). */
export const FALLBACK_ORIGIN_ENV = 'ENGRAM_FALLBACK_ORIGIN';

/** A run Claude Code started as a hook: `engram hook …`, or the plugin's `engram ingest --disk --hook`. */
function isHookRun(argv: readonly string[]): boolean {
  return argv[0] === 'hook' || (argv[0] === 'ingest' && argv.includes('--hook'));
}

export type RuntimeGate =
  /** This runtime can load the binding: run the command here. */
  | { readonly run: true }
  /** Done without loading anything (ran on the fallback runtime, or refused): exit with this. */
  | { readonly run: false; readonly exitCode: number };

/**
 * Called before a command loads the SQLite binding. On an older Node the command runs on
 * the fallback runtime when the shim named one; otherwise one line says why and the exit code is
 * 1 — or, for a hook, which must never break Claude Code, 0 with no output and a line in the hook
 * log. Never a segfault.
 */
export function gateRuntime(argv: readonly string[], io: CliIO, versions: NodeJS.ProcessVersions = process.versions): RuntimeGate {
  if (canLoadSqlite(versions)) return { run: true };
  const fallback = io.env[FALLBACK_RUNTIME_ENV];
  if (fallback && path.resolve(fallback) !== process.execPath && existsSync(fallback)) {
    const env: NodeJS.ProcessEnv = { ...io.env, ELECTRON_RUN_AS_NODE: '1', [RUNTIME_ORIGIN_ENV]: io.env[FALLBACK_ORIGIN_ENV] };
    delete env[FALLBACK_RUNTIME_ENV];
    delete env[FALLBACK_ORIGIN_ENV];
    // Loaded here: node:child_process costs every command's start 3-5 ms, and this path is rare.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
    const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
    // A hook's stdin may already have been read (to ask the memory server): it is passed on.
    const result = spawnSync(fallback, [process.argv[1] ?? '', ...argv], {
      stdio: io.stdin ? ['pipe', 'inherit', 'inherit'] : 'inherit',
      ...(io.stdin ? { input: io.stdin.text } : {}),
      env,
      cwd: io.cwd,
      windowsHide: true,
    });
    // A hook exits 0 whatever happened to it there (it logs for itself).
    if (!result.error) return { run: false, exitCode: isHookRun(argv) ? 0 : (result.status ?? 1) };
  }
  const message = `Engram needs Node.js ${MIN_NODE_VERSION} or newer; this is Node ${versions.node} (${process.execPath}). Install a current Node.js, or run Engram from VS Code ≥ 1.101, whose own runtime it uses.`;
  if (isHookRun(argv)) {
    logHook(io.env, { event: argv[0] === 'hook' ? (argv[1] ?? '?') : 'disk-pass', session: '-', outcome: 'refused', ms: 0, detail: message });
    return { run: false, exitCode: 0 };
  }
  io.err(`engram: ${message}\n`);
  return { run: false, exitCode: 1 };
}
