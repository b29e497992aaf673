import path from 'node:path';

/**
 * Where a window's memory server takes requests: a private folder in `run/` of Engram's data
 * folder (docs/architecture.md, "Commands the server answers"). Derived from the window id alone,
 * so the extension can tell its terminals (ENGRAM_MAILBOX) and the server where it is.
 */
export function memoryServerMailbox(windowId: string, home: string): string {
  const name = `engram-${windowId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 64) || 'window'}`;
  return path.join(home, 'run', name);
}
