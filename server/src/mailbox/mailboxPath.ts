import path from 'node:path';

/**
 * Where a window's memory server takes requests (docs/architecture.md, "Commands the server
 * answers"): a private folder in the user's runtime directory when there is one (XDG_RUNTIME_DIR:
 * in memory on Linux, so hook input never reaches the disk), else in `run/` of Engram's data
 * folder. Derived from the window id, so the extension can tell its terminals (ENGRAM_MAILBOX)
 * and the server where it is.
 */
export function memoryServerMailbox(windowId: string, home: string, runtimeDir?: string): string {
  const name = `engram-${windowId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 64) || 'window'}`;
  if (runtimeDir && path.isAbsolute(runtimeDir)) return path.join(runtimeDir, 'engram', name);
  return path.join(home, 'run', name);
}
