import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { engramHome } from '../store/paths';

/**
 * The stable command hooks and MCP registrations point at: `$ENGRAM_HOME/bin/engram`, a tiny
 * script that runs the current Engram on the current Node. Extension updates move Engram's
 * files; the memory server rewrites the script at every start (self-healing), so settings written
 * once keep working — in VS Code's terminal and in any other.
 */
export function shimPath(env: NodeJS.ProcessEnv): string {
  return path.join(engramHome(env), 'bin', process.platform === 'win32' ? 'engram.cmd' : 'engram');
}

function shimText(node: string, engramJs: string): string {
  if (process.platform === 'win32') return `@echo off\r\n"${node}" "${engramJs}" %*\r\n`;
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return `#!/bin/sh\n# Written by Engram; rewritten when Engram moves. Runs the Engram CLI.\nexec ${quote(node)} ${quote(engramJs)} "$@"\n`;
}

/** Writes (or refreshes) the script for this Node and this engram.js; returns its path and whether it changed. */
export function writeShim(env: NodeJS.ProcessEnv, node: string = process.execPath, engramJs: string = process.argv[1] ?? ''): { path: string; changed: boolean } {
  const file = shimPath(env);
  const text = shimText(node, path.resolve(engramJs));
  let current: string | null = null;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // Not written yet.
  }
  if (current === text) return { path: file, changed: false };
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  chmodSync(temporary, 0o755);
  renameSync(temporary, file);
  return { path: file, changed: true };
}
