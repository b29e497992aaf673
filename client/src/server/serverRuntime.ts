import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** A Node.js that can run the memory server: version ≥ 20 and a shipped SQLite binding for its ABI. */
export interface NodeRuntime {
  readonly path: string;
  readonly version: string;
  readonly abi: string;
  readonly origin: 'setting' | 'PATH';
}

export type RuntimeResolution = { readonly ok: true; readonly runtime: NodeRuntime } | { readonly ok: false; readonly reason: string };

const MIN_MAJOR = 20;
const PROBE_TIMEOUT_MS = 5000;

function probe(nodePath: string): Promise<{ version: string; abi: string } | { error: string }> {
  return new Promise((resolve) => {
    execFile(nodePath, ['-p', 'process.versions.node + " " + process.versions.modules'], { timeout: PROBE_TIMEOUT_MS }, (error, stdout) => {
      if (error) return resolve({ error: error.message.split('\n')[0]! });
      const [version = '', abi = ''] = stdout.trim().split(' ');
      resolve({ version, abi });
    });
  });
}

export function findOnPath(command: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const names = process.platform === 'win32' ? [`${command}.exe`, `${command}.cmd`] : [command];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}

async function check(nodePath: string, origin: NodeRuntime['origin'], bindingsDir: string): Promise<RuntimeResolution> {
  const result = await probe(nodePath);
  if ('error' in result) return { ok: false, reason: `${nodePath} (from ${origin}) did not run: ${result.error}` };
  const major = Number(result.version.split('.')[0]);
  if (!(major >= MIN_MAJOR)) {
    return { ok: false, reason: `${nodePath} (from ${origin}) is Node ${result.version}; Engram's memory server needs Node ${MIN_MAJOR} or newer.` };
  }
  // A dev checkout without staged bindings still works through `npm run build`; a VSIX always has them.
  if (existsSync(bindingsDir) && !existsSync(path.join(bindingsDir, `better_sqlite3-abi${result.abi}.node`))) {
    return {
      ok: false,
      reason: `${nodePath} (from ${origin}) is Node ${result.version} (ABI ${result.abi}), but Engram ships SQLite bindings only for Node 20, 22 and 24.`,
    };
  }
  return { ok: true, runtime: { path: nodePath, version: result.version, abi: result.abi, origin } };
}

/**
 * Which Node.js runs the memory server. The extension host's own runtime cannot be assumed to
 * load the native SQLite binding (Electron, or a Node with another ABI), so: the `engram.nodePath`
 * setting, else `node` on PATH, else a clear reason.
 */
export async function resolveNodeRuntime(configuredPath: string, bindingsDir: string): Promise<RuntimeResolution> {
  if (configuredPath.trim()) return check(configuredPath.trim(), 'setting', bindingsDir);
  const onPath = findOnPath('node');
  if (!onPath) return { ok: false, reason: 'No Node.js found: "engram.nodePath" is not set and there is no `node` on PATH. Engram needs Node 20, 22 or 24.' };
  return check(onPath, 'PATH', bindingsDir);
}
