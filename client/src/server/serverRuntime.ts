import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { describeRuntimeOrigin, RUNTIME_ORIGIN_ENV, type RuntimeOrigin } from '../../../server/src/runtime/runtimeOrigin';
import { MIN_NODE_VERSION } from '../../../server/src/runtime/runtimeRequirement';

/** A runtime that runs Engram's memory server: it loaded the SQLite binding when asked. */
export interface ServerRuntime {
  readonly path: string;
  readonly origin: RuntimeOrigin;
  /** What it said of itself: "Node v24.9.0 at …". */
  readonly detail: string;
  /** Candidates tried before it that could not run Engram, each with the reason. */
  readonly passedOver: readonly string[];
}

export type RuntimeResolution = { readonly ok: true; readonly runtime: ServerRuntime } | { readonly ok: false; readonly reason: string };

/** Long enough for a cold Electron start on a busy Windows machine; it only runs at server start. */
const PROBE_TIMEOUT_MS = 20_000;

/**
 * The environment a runtime runs Engram with: Electron acts as Node with ELECTRON_RUN_AS_NODE
 * (plain Node ignores it), and the origin lets the server and `engram doctor` say which it is.
 */
export function runtimeEnv(origin: RuntimeOrigin): Record<string, string> {
  return { ELECTRON_RUN_AS_NODE: '1', [RUNTIME_ORIGIN_ENV]: origin };
}

type Probe = { readonly ok: true; readonly detail: string } | { readonly ok: false; readonly reason: string };

interface DoctorReport {
  readonly ok: boolean;
  readonly checks: readonly { readonly name: string; readonly ok: boolean; readonly detail: string }[];
}

/** Asks the candidate itself, through `engram doctor --runtime`: the same checks the CLI runs before it loads SQLite. */
function probe(runtime: string, origin: RuntimeOrigin, engramJs: string): Promise<Probe> {
  return new Promise((resolve) => {
    const env = { ...process.env, ...runtimeEnv(origin) };
    execFile(runtime, [engramJs, 'doctor', '--runtime', '--json'], { env, timeout: PROBE_TIMEOUT_MS, windowsHide: true }, (error, stdout, stderr) => {
      let report: DoctorReport | undefined;
      try {
        report = JSON.parse(stdout) as DoctorReport;
      } catch {
        // Not a report: the runtime did not get as far as the doctor; say what it did.
      }
      if (report?.ok) return resolve({ ok: true, detail: report.checks.find((c) => c.name === 'runtime')?.detail ?? runtime });
      if (report) return resolve({ ok: false, reason: report.checks.filter((c) => !c.ok).map((c) => c.detail).join('; ') });
      const signal = error && 'signal' in error && error.signal ? `it crashed (${String(error.signal)})` : undefined;
      const said = stderr.split('\n').find((line) => line.trim())?.replace(/^engram: /, '');
      resolve({ ok: false, reason: said ?? signal ?? error?.message.split('\n')[0] ?? 'it printed nothing' });
    });
  });
}

/** A file that can be started: a regular file, and on POSIX one with execute permission. */
function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findOnPath(command: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | null {
  // A .cmd cannot be started without a shell; a runtime is an executable.
  const names = platform === 'win32' ? [`${command}.exe`] : [command];
  const pathApi = platform === 'win32' ? path.win32 : path.posix;
  for (const dir of (env.PATH ?? env.Path ?? '').split(pathApi.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = pathApi.join(dir, name);
      if (isExecutableFile(candidate, platform)) return candidate;
    }
  }
  return null;
}

export interface RuntimeCandidates {
  /** The `engram.nodePath` setting, blank when unset. */
  readonly configured: string;
  /** The extension host's own executable (process.execPath). */
  readonly editor: string;
  /** The `engram.js` the server runs from. */
  readonly engramJs: string;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Which runtime runs the memory server. A set `engram.nodePath` is used or is the error: Engram
 * never silently runs something else than what the user chose. Otherwise the editor's own runtime,
 * so nothing needs installing; if it cannot load SQLite, `node` 22.14+ on PATH; else a reason that
 * names each candidate and why it could not.
 */
export async function resolveServerRuntime({ configured, editor, engramJs, env = process.env }: RuntimeCandidates): Promise<RuntimeResolution> {
  if (configured.trim()) {
    const nodePath = configured.trim();
    const result = await probe(nodePath, 'setting', engramJs);
    return result.ok
      ? { ok: true, runtime: { path: nodePath, origin: 'setting', detail: result.detail, passedOver: [] } }
      : { ok: false, reason: `The engram.nodePath setting (${nodePath}) cannot run Engram: ${result.reason}` };
  }
  const passedOver: string[] = [];
  const candidates: [string | null, RuntimeOrigin][] = [
    [editor, 'editor'],
    [findOnPath('node', env), 'path'],
  ];
  for (const [candidate, origin] of candidates) {
    if (!candidate) {
      passedOver.push(`${describeRuntimeOrigin(origin)}: there is none`);
      continue;
    }
    const result = await probe(candidate, origin, engramJs);
    if (result.ok) return { ok: true, runtime: { path: candidate, origin, detail: result.detail, passedOver } };
    passedOver.push(`${describeRuntimeOrigin(origin)} (${candidate}): ${result.reason}`);
  }
  return { ok: false, reason: `No runtime can run Engram's memory server. Tried ${passedOver.join('; ')}. Install Node.js ${MIN_NODE_VERSION} or newer, or set engram.nodePath.` };
}
