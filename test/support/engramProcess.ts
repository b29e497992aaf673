import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** The built CLI: integration tests run what ships, so `npm run build` must have run. */
export const ENGRAM_JS = path.join(REPO_ROOT, 'dist', 'engram.js');

export function assertBuilt(): void {
  if (!existsSync(ENGRAM_JS)) throw new Error(`${ENGRAM_JS} is missing: run \`npm run build\` first`);
}

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `engram ARGS` as a real process, optionally on another Node binary, with stdin, or as another user (`user`, when the tests run as root). */
export function runEngram(args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string; node?: string; stdin?: string; timeoutMs?: number; user?: { uid: number; gid: number } }): Promise<RunResult> {
  assertBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, [ENGRAM_JS, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...options.user,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}
