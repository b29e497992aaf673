import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

/**
 * A fresh temporary folder, removed when the test file ends. The removal never fails a test: a
 * suite's own `after` (stopping a server that still writes into the folder) may run after this
 * one, and a throwing hook would skip it and leave the server running. Every folder is removed
 * again as the process exits: a server stopped after this hook writes its code cache as it exits,
 * which made its folder anew.
 */
export function tempDir(prefix = 'engram-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  if (made.size === 0) process.once('exit', () => made.forEach(removed));
  made.add(dir);
  after(() => removed(dir));
  return dir;
}

const made = new Set<string>();

function removed(dir: string): boolean {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
    return true;
  } catch {
    return false;
  }
}

/** An environment whose Engram data lives in a temporary ENGRAM_HOME and whose HOME is temporary too. */
export function isolatedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = tempDir('engram-home-');
  return { ...process.env, HOME: home, ENGRAM_HOME: path.join(home, 'engram'), XDG_DATA_HOME: path.join(home, '.local', 'share'), ...extra };
}
