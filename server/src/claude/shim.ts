import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runtimeOriginOf, type RuntimeOrigin } from '../runtime/runtimeOrigin';
import { engramHome } from '../paths/engramPaths';
import { posixQuote, toShellPath } from './shellQuote';

/**
 * The stable commands that hooks and MCP registrations run: `$ENGRAM_HOME/bin/engram`, a POSIX
 * shell script on every OS (Claude Code runs hooks through Git Bash on Windows), and `engram.cmd`
 * beside it on Windows, for cmd.exe and PowerShell. They run the current Engram on `node` from
 * PATH when there is one, else on the runtime the memory server runs on (the editor's own, as a
 * rule), so nothing needs installing. Extension and editor updates move those files; the memory
 * server rewrites the scripts at every start (self-healing), so settings written once keep working.
 */
export function shimPath(env: NodeJS.ProcessEnv): string {
  return path.join(engramHome(env), 'bin', 'engram');
}

export function cmdShimPath(env: NodeJS.ProcessEnv): string {
  return path.join(engramHome(env), 'bin', 'engram.cmd');
}

/**
 * A launcher for runtimes started with no shell (an MCP server on Windows, where a script cannot
 * be started that way): `<runtime> engram.js …` loads the current Engram.
 */
export function launcherPath(env: NodeJS.ProcessEnv): string {
  return path.join(engramHome(env), 'bin', 'engram.js');
}

/** What a shim runs: this Engram, on `node` from PATH if any, else on `runtime`. */
export interface ShimTarget {
  /** Absolute path of dist/engram.js. */
  readonly engramJs: string;
  /** Absolute path of the runtime Engram runs on when there is no `node` on PATH. */
  readonly runtime: string;
  readonly origin: RuntimeOrigin;
}

export function posixShimText({ engramJs, runtime, origin }: ShimTarget, platform: NodeJS.Platform = process.platform): string {
  return [
    '#!/bin/sh',
    '# Written by Engram and rewritten each time its memory server starts. Runs the Engram CLI on',
    '# `node` from PATH, else on the runtime Engram runs on (ELECTRON_RUN_AS_NODE makes an editor one act',
    '# as Node). A `node` too old for Engram hands the command over to that runtime itself.',
    `engram=${posixQuote(toShellPath(engramJs, platform))}`,
    `runtime=${posixQuote(toShellPath(runtime, platform))}`,
    // bash's `command -v` also names a file it cannot run when there is nothing better.
    'node=$(command -v node 2>/dev/null)',
    'if [ -f "$node" ] && [ -x "$node" ]; then',
    `  ENGRAM_FALLBACK_RUNTIME="$runtime" ENGRAM_FALLBACK_ORIGIN=${origin} ENGRAM_RUNTIME_ORIGIN=path exec "$node" "$engram" "$@"`,
    'fi',
    `ELECTRON_RUN_AS_NODE=1 ENGRAM_RUNTIME_ORIGIN=${origin} exec "$runtime" "$engram" "$@"`,
    '',
  ].join('\n');
}

/**
 * cmd.exe reads a batch file in the console's code page: the script switches to UTF-8 for its
 * paths (a user folder may be "Jürgen") and back. `%` is doubled; `&`, `(`, `)` are safe in quotes.
 */
export function cmdShimText({ engramJs, runtime, origin }: ShimTarget): string {
  const literal = (text: string) => text.replace(/%/g, '%%');
  return [
    '@echo off',
    'rem Written by Engram and rewritten each time its memory server starts: runs the Engram CLI.',
    'setlocal',
    'for /f "tokens=2 delims=:." %%c in (\'chcp\') do set /a "ENGRAM_CODEPAGE=%%c" >nul 2>nul',
    'chcp 65001 >nul',
    `set "ENGRAM_JS=${literal(engramJs)}"`,
    `set "ENGRAM_FALLBACK_RUNTIME=${literal(runtime)}"`,
    `set "ENGRAM_FALLBACK_ORIGIN=${origin}"`,
    'if defined ENGRAM_CODEPAGE chcp %ENGRAM_CODEPAGE% >nul',
    'where /q node.exe || goto fallback',
    'set "ENGRAM_RUNTIME_ORIGIN=path"',
    'node.exe "%ENGRAM_JS%" %*',
    'exit /b',
    ':fallback',
    'set "ELECTRON_RUN_AS_NODE=1"',
    'set "ENGRAM_RUNTIME_ORIGIN=%ENGRAM_FALLBACK_ORIGIN%"',
    '"%ENGRAM_FALLBACK_RUNTIME%" "%ENGRAM_JS%" %*',
    '',
  ].join('\r\n');
}

export function launcherText({ engramJs }: ShimTarget): string {
  return [
    '// Written by Engram and rewritten each time its memory server starts: runs the current Engram.',
    `process.argv[1] = ${JSON.stringify(engramJs)};`,
    `require(${JSON.stringify(engramJs)});`,
    '',
  ].join('\n');
}

/** This process's Engram and runtime: what the memory server (or `engram connect`) writes into the shims. */
export function currentShimTarget(env: NodeJS.ProcessEnv = process.env): ShimTarget {
  return { engramJs: path.resolve(process.argv[1] ?? ''), runtime: process.execPath, origin: runtimeOriginOf(env) ?? 'path' };
}

function writeIfChanged(file: string, text: string, mode: number): boolean {
  let current: string | null = null;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // Not written yet.
  }
  if (current === text) return false;
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  chmodSync(temporary, mode);
  renameSync(temporary, file);
  return true;
}

/** Writes (or refreshes) the shims and the launcher for `target`; returns the POSIX shim's path and whether anything changed. */
export function writeShim(env: NodeJS.ProcessEnv, target: ShimTarget = currentShimTarget(env)): { path: string; changed: boolean } {
  const file = shimPath(env);
  let changed = writeIfChanged(file, posixShimText(target), 0o755);
  changed = writeIfChanged(launcherPath(env), launcherText(target), 0o644) || changed;
  if (process.platform === 'win32') changed = writeIfChanged(cmdShimPath(env), cmdShimText(target), 0o755) || changed;
  return { path: file, changed };
}
