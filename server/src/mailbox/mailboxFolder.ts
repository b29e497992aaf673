import { closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, readdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';

/**
 * A mailbox folder opened once, by handle, without following a link. Where the platform lets a
 * handle name a folder (Linux: /proc/self/fd/N), every entry is reached through it, so a folder
 * swapped in after the checks — the mailbox itself or one above it — is never written to nor
 * read from. Elsewhere entries are reached by path, and the folder above must be private (no one
 * else may rename what is in it).
 */
export interface MailboxFolder {
  readonly path: string;
  /** Where the entry `name` is. */
  entry(name: string): string;
  /** The names in the folder. */
  list(): string[];
  /** Whether `folder` (a path) is still this folder: for removing it by path. */
  isAt(folder: string): boolean;
  close(): void;
}

/** A folder handle and what it is, before it is judged fit for a mailbox. */
export interface FolderHandle extends MailboxFolder {
  stat(): Stats;
  /** Mode 0700, by handle. */
  closeToOthers(): void;
}

const isWindows = process.platform === 'win32';

function ownUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/**
 * Why the folder above a mailbox lets others swap the mailbox, or null: it must be a real
 * folder of this user's own that no one else can write to (on Windows, the user's profile ACL).
 */
export function parentFolderProblem(folder: string): string | null {
  const parent = path.dirname(folder);
  let stat;
  try {
    stat = lstatSync(parent);
  } catch (error) {
    return `${parent}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
  if (!stat.isDirectory()) return `${parent} is not a folder`;
  if (isWindows) return null;
  if (stat.uid !== ownUid()) return `${parent} is not a folder of this user's own`;
  if ((stat.mode & 0o022) !== 0) return `${parent} can be written by other users (mode ${(stat.mode & 0o777).toString(8)})`;
  return null;
}

/** Why a folder, as opened, must not be a mailbox, or null: a request carries a hook's input and a reply becomes the agent's context. */
export function folderStatProblem(folder: string, stat: Stats): string | null {
  if (!stat.isDirectory()) return `${folder} is not a folder`;
  if (isWindows) return null;
  if (stat.uid !== ownUid()) return `${folder} is not a folder of this user's own`;
  if ((stat.mode & 0o077) !== 0) return `${folder} is open to other users (mode ${(stat.mode & 0o777).toString(8)})`;
  return null;
}

/**
 * Why a folder reached by path could be swapped by another user, or null: every folder above it
 * must be this user's or root's, and others may not rename what is in it (not writable by
 * them, or sticky, like /tmp).
 */
function ancestorsProblem(folder: string): string | null {
  for (let dir = path.dirname(folder); ; dir = path.dirname(dir)) {
    let stat;
    try {
      stat = lstatSync(dir);
    } catch (error) {
      return `${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
    }
    if (stat.isSymbolicLink()) stat = statSync(dir);
    if (stat.uid !== 0 && stat.uid !== ownUid()) return `${dir} belongs to another user`;
    if ((stat.mode & 0o022) !== 0 && (stat.mode & 0o1000) === 0) return `${dir} can be written by other users`;
    if (path.dirname(dir) === dir) return null;
  }
}

/** The path through which a handle names its folder, when the platform has one that works. */
function handlePath(fd: number, stat: Stats): string | null {
  if (process.platform !== 'linux') return null;
  const through = `/proc/self/fd/${fd}`;
  try {
    const seen = statSync(through);
    return seen.ino === stat.ino && seen.dev === stat.dev ? through : null;
  } catch {
    return null; // No /proc: entries by path.
  }
}

/**
 * Opens `folder` by handle (not through a link) in a private folder above, or says why it
 * cannot. Windows has no such
 * handles nor modes: there the mailbox is in `%LOCALAPPDATA%\engram\run`, inside the user's
 * profile, whose ACL lets in only the user, SYSTEM and administrators.
 */
export function openFolderHandle(folder: string): FolderHandle | { readonly problem: string } {
  if (isWindows) {
    try {
      if (!lstatSync(folder).isDirectory()) return { problem: `${folder} is not a folder` };
    } catch (error) {
      return { problem: `${folder}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
    }
    const byPath = (name: string) => path.join(folder, name);
    return { path: folder, entry: byPath, list: () => readdirSync(folder), isAt: (other) => other === folder, stat: () => lstatSync(folder), closeToOthers: () => undefined, close: () => undefined };
  }
  let fd: number;
  try {
    fd = openSync(folder, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOTDIR' || code === 'ELOOP' ? `${folder} is not a folder` : `${folder}: ${code ?? (error as Error).message}` };
  }
  // Checked even with a handle: a folder above that others can write to is a setup to refuse.
  const problem = parentFolderProblem(folder);
  if (problem) {
    closeSync(fd);
    return { problem };
  }
  const opened = fstatSync(fd);
  const through = handlePath(fd, opened);
  // Without a handle to go through, a swap is ruled out only by who may rename the folders above.
  const unsafe = through ? null : ancestorsProblem(folder);
  if (unsafe) {
    closeSync(fd);
    return { problem: unsafe };
  }
  const base = through ?? folder;
  return {
    path: folder,
    entry: (name) => path.join(base, name),
    list: () => readdirSync(base),
    isAt: (other) => {
      try {
        const stat = lstatSync(other);
        return stat.ino === opened.ino && stat.dev === opened.dev;
      } catch {
        return false;
      }
    },
    stat: () => fstatSync(fd),
    closeToOthers: () => fchmodSync(fd, 0o700),
    close: () => closeSync(fd),
  };
}

/** Opens a mailbox folder for a caller: by handle, a real folder of this user's own, closed to others; or why not. */
export function openMailboxFolder(folder: string): MailboxFolder | { readonly problem: string } {
  const handle = openFolderHandle(folder);
  if ('problem' in handle) return handle;
  const problem = folderStatProblem(folder, handle.stat());
  if (problem) {
    handle.close();
    return { problem };
  }
  return handle;
}
