import { hostPaths, type PlatformPaths } from '../store/platformPaths';

/**
 * Where a window's memory server takes requests (docs/architecture.md, "Commands the server
 * answers"): a private folder in the user's runtime directory when there is one (XDG_RUNTIME_DIR:
 * in memory on Linux, so hook input never reaches the disk; a relative one is no runtime
 * directory, as the XDG spec says), else in `run/` of Engram's data folder (`home`) — the only
 * choice on macOS and Windows. Derived from the window id, so the extension can tell its
 * terminals (ENGRAM_MAILBOX) and the server where it is. mailboxServer.ts creates it closed to
 * other users.
 */
export function memoryServerMailbox(windowId: string, home: string, runtimeDir?: string, paths: PlatformPaths = hostPaths): string {
  const name = `engram-${windowId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 64) || 'window'}`;
  if (runtimeDir && paths.path.isAbsolute(runtimeDir)) return paths.path.join(runtimeDir, 'engram', name);
  return paths.path.join(home, 'run', name);
}
