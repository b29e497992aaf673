import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * better-sqlite3's name for a platform's prebuilt binding (`prebuilds/<name>.node` in its npm
 * package): Node-API, so one file serves every Node ≥ 22 and Electron on that platform.
 */
export type BindingTarget = `${'linux' | 'linuxmusl' | 'darwin' | 'win32'}-${'x64' | 'arm64'}`;

export const BINDING_TARGETS: readonly BindingTarget[] = ['linux-x64', 'linux-arm64', 'linuxmusl-x64', 'linuxmusl-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];

/** The binding could not be found or cannot serve this machine. */
export class NativeBindingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NativeBindingError';
  }
}

/** Alpine and other musl systems need the musl build; the loader mapped into this process tells which libc runs. */
export function isMusl(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const maps = readFileSync('/proc/self/maps', 'latin1');
    if (/\/ld-musl-[^/\s]*\.so/.test(maps)) return true;
    if (/\/(?:ld-linux[^/\s]*|libc)\.so\.\d/.test(maps)) return false;
  } catch {
    // No /proc: ask Node's report below.
  }
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return !header?.glibcVersionRuntime;
}

/** The binding this process needs, or null on a platform better-sqlite3 ships no binding for. */
export function bindingTargetOf(platform: NodeJS.Platform, arch: string, musl: boolean): BindingTarget | null {
  const os = platform === 'linux' && musl ? 'linuxmusl' : platform;
  const target = `${os}-${arch}`;
  return (BINDING_TARGETS as readonly string[]).includes(target) ? (target as BindingTarget) : null;
}

export function currentBindingTarget(): BindingTarget | null {
  return bindingTargetOf(process.platform, process.arch, isMusl());
}

/** Where the bundle keeps its binding: `native/` beside it (the VSIX), or dist/native of a dev checkout. */
function nativeDirs(): string[] {
  return [path.join(__dirname, 'native'), path.join(__dirname, '..', '..', '..', 'dist', 'native')];
}

/**
 * Finds the SQLite binding for this machine. A VSIX carries exactly one (`native/<target>.node`),
 * so an install for another platform says which VSIX to take instead of failing inside SQLite.
 */
export function findNativeBinding(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ENGRAM_NATIVE_BINDING) return env.ENGRAM_NATIVE_BINDING;
  const target = currentBindingTarget();
  const machine = `${process.platform}${isMusl() ? ' (musl)' : ''} ${process.arch}`;
  if (!target) throw new NativeBindingError(`Engram's SQLite has no build for ${machine}; it runs on Windows, macOS and Linux (glibc or musl), x64 and arm64.`);
  const dirs = nativeDirs();
  for (const dir of dirs) {
    const candidate = path.join(dir, `${target}.node`);
    if (existsSync(candidate)) return candidate;
  }
  const shipped = dirs.flatMap((dir) => {
    try {
      return readdirSync(dir).filter((f) => f.endsWith('.node')).map((f) => f.slice(0, -'.node'.length));
    } catch {
      return [];
    }
  });
  throw new NativeBindingError(
    shipped.length
      ? `This Engram is built for ${[...new Set(shipped)].join(', ')}, not for this machine (${target}): install the Engram VSIX for ${target}.`
      : `Engram's SQLite binding for ${target} is missing (looked in ${dirs.join(', ')}): reinstall Engram, or run \`npm run build\` in a checkout.`,
  );
}

/** Loads the binding into a throwaway in-memory database: the SQLite version, and whether FTS5 works. */
export function probeSqlite(binding: string): { sqliteVersion: string; fts5: boolean } {
  // Required lazily so that finding the binding never needs the native module loaded.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(':memory:', { nativeBinding: binding });
  try {
    const sqliteVersion = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    let fts5 = true;
    try {
      db.exec('CREATE VIRTUAL TABLE probe USING fts5 (text)');
    } catch (error) {
      fts5 = !String((error as Error).message).includes('no such module');
    }
    return { sqliteVersion, fts5 };
  } finally {
    db.close();
  }
}
