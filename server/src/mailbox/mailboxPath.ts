import { statSync } from 'node:fs';
import { hostPaths, type PlatformPaths } from '../paths/platformPaths';

/**
 * Whether a runtime directory may hold mailboxes: a folder of this user's own that no one else
 * can write to (XDG asks for 0700). In one that others can write to, another user could make
 * `engram/` first, or swap it. Windows has no such modes (and no XDG_RUNTIME_DIR of its own).
 */
export function isPrivateRuntimeDir(dir: string): boolean {
  if (process.platform === 'win32') return true;
  try {
    const stat = statSync(dir);
    return stat.isDirectory() && (typeof process.getuid !== 'function' || stat.uid === process.getuid()) && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * Where a window's memory server takes requests (docs/architecture.md, "Commands the server
 * answers"): a private folder in the user's runtime directory when there is a private one
 * (XDG_RUNTIME_DIR: in memory on Linux, so hook input never reaches the disk; a relative one is
 * no runtime directory, as the XDG spec says), else in `run/` of Engram's data folder (`home`) —
 * the only choice on macOS and Windows. Derived from the window id, so the extension can tell its
 * terminals (ENGRAM_MAILBOX) and the server where it is. mailboxServer.ts creates it closed to
 * other users.
 */
export function memoryServerMailbox(windowId: string, home: string, runtimeDir?: string, paths: PlatformPaths = hostPaths, isPrivate: (dir: string) => boolean = isPrivateRuntimeDir): string {
  const name = `engram-${windowId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 64) || 'window'}`;
  if (runtimeDir && paths.path.isAbsolute(runtimeDir) && isPrivate(runtimeDir)) return paths.path.join(runtimeDir, 'engram', name);
  return paths.path.join(home, 'run', name);
}
