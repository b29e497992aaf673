import os from 'node:os';
import path from 'node:path';

/** Unix socket paths are limited to 104–108 bytes, depending on the system. */
const MAX_SOCKET_PATH = 100;

/**
 * Where a window's memory server listens: `run/` in Engram's data folder, or a private folder in
 * the temp directory when that path is too long for a socket; a named pipe on Windows. Derived
 * from the window id alone, so the extension can tell its terminals (ENGRAM_SOCKET) and the
 * server where it is.
 */
export function memoryServerSocketPath(windowId: string, home: string, platform: NodeJS.Platform = process.platform): string {
  const name = `engram-${windowId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 64) || 'window'}`;
  if (platform === 'win32') return `\\\\.\\pipe\\${name}`;
  const inHome = path.join(home, 'run', `${name}.sock`);
  if (Buffer.byteLength(inHome) <= MAX_SOCKET_PATH) return inHome;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(os.tmpdir(), `engram-${uid}`, `${name}.sock`);
}
