import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

/** A fresh temporary folder, removed when the test file ends. */
export function tempDir(prefix = 'engram-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An environment whose Engram data lives in a temporary ENGRAM_HOME and whose HOME is temporary too. */
export function isolatedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = tempDir('engram-home-');
  return { ...process.env, HOME: home, ENGRAM_HOME: path.join(home, 'engram'), XDG_DATA_HOME: path.join(home, '.local', 'share'), ...extra };
}
