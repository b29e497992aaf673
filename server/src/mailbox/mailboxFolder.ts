import { lstatSync } from 'node:fs';

/**
 * Why `folder` must not be used as a mailbox, or null when it may: a request carries a hook's
 * input and a reply becomes the agent's context, so the folder must be a real folder (not a
 * link) of this user's own that no one else can enter (mode 0700 on POSIX). Windows has no such
 * modes: there the folder is in `%LOCALAPPDATA%\engram\run`, inside the user's profile, whose
 * ACL lets in only the user, SYSTEM and administrators, and which new folders inherit (an
 * ENGRAM_HOME elsewhere gets that place's ACL).
 */
export function mailboxFolderProblem(folder: string): string | null {
  let stat;
  try {
    stat = lstatSync(folder);
  } catch (error) {
    return `${folder}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
  if (!stat.isDirectory()) return `${folder} is not a folder`;
  if (process.platform === 'win32') return null;
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return `${folder} is not a folder of this user's own`;
  if ((stat.mode & 0o077) !== 0) return `${folder} is open to other users (mode ${(stat.mode & 0o777).toString(8)})`;
  return null;
}
