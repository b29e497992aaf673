import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { canLoadSqlite } from './runtimeRequirement';

export interface NodeOnPath {
  readonly path: string;
  /** `process.version` of it, or null when it did not run. */
  readonly version: string | null;
  /** Whether it can load Engram's SQLite binding (runtimeRequirement.ts). */
  readonly usable: boolean;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (process.platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The `node` a shell would find on `env.PATH` — what the Claude Code plugin's launcher runs — and
 * whether it can run Engram; null when there is none. Starts it once: for `engram doctor`, not hooks.
 */
export function nodeOnPath(env: NodeJS.ProcessEnv): NodeOnPath | null {
  const names = process.platform === 'win32' ? ['node.exe', 'node'] : ['node'];
  const dirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) {
    for (const name of names) {
      const file = path.join(dir, name);
      if (!isExecutableFile(file)) continue;
      const probe = spawnSync(file, ['-p', 'JSON.stringify(process.versions)'], { encoding: 'utf8', timeout: 20_000, windowsHide: true, env: { ...env, ELECTRON_RUN_AS_NODE: undefined } });
      let versions: NodeJS.ProcessVersions | null = null;
      try {
        versions = probe.status === 0 ? (JSON.parse(probe.stdout) as NodeJS.ProcessVersions) : null;
      } catch {
        versions = null;
      }
      return { path: file, version: versions ? `v${versions.node}` : null, usable: versions !== null && canLoadSqlite(versions) };
    }
  }
  return null;
}
