/**
 * Which runtime runs Engram, and why, so the status bar and `engram doctor` can say it. The
 * extension tells the memory server (and the shim tells the CLI) through this variable.
 */
export const RUNTIME_ORIGIN_ENV = 'ENGRAM_RUNTIME_ORIGIN';

export type RuntimeOrigin =
  /** The editor's own: Electron as Node in desktop VS Code, the server's Node in code-server and remote hosts. */
  | 'editor'
  /** The `engram.nodePath` setting. */
  | 'setting'
  /** `node` on PATH. */
  | 'path';

const DESCRIPTIONS: Record<RuntimeOrigin, string> = {
  editor: "the editor's own runtime",
  setting: 'the engram.nodePath setting',
  path: '`node` on PATH',
};

export function isRuntimeOrigin(value: unknown): value is RuntimeOrigin {
  return typeof value === 'string' && value in DESCRIPTIONS;
}

export function describeRuntimeOrigin(origin: RuntimeOrigin): string {
  return DESCRIPTIONS[origin];
}

/** The origin the environment names, else what this process can tell of itself (Electron is an editor). */
export function runtimeOriginOf(env: NodeJS.ProcessEnv, versions: NodeJS.ProcessVersions = process.versions): RuntimeOrigin | null {
  const named = env[RUNTIME_ORIGIN_ENV];
  if (isRuntimeOrigin(named)) return named;
  return versions.electron ? 'editor' : null;
}
