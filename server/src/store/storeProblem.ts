import { accessSync, constants, statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import { isSameOrInside } from '../paths/pathIdentity';
import { engramHome } from '../paths/engramPaths';

/** What keeps a project's store from being used, each with its own advice. */
export type StoreProblem = 'locked' | 'read-only' | 'full' | 'not-a-folder' | 'no-access' | 'damaged' | 'disk-error';

/**
 * The store cannot be used as things are: the message is one line that says what is wrong and
 * what to do. Nothing was written, deleted or moved because of it.
 */
export class StoreError extends Error {
  override name = 'StoreError';

  constructor(
    readonly problem: StoreProblem,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Where one project's data lives, to name it in a message. */
export interface StorePlace {
  readonly databaseFile: string;
  /** Engram's data folder. */
  readonly home: string;
  /** Whether ENGRAM_HOME chose it (then the advice is about that variable). */
  readonly homeFromEnv: boolean;
}

export function storePlace(databaseFile: string, env: NodeJS.ProcessEnv): StorePlace {
  return { databaseFile, home: engramHome(env), homeFromEnv: Boolean(env.ENGRAM_HOME) };
}

/** SQLite's primary result code of an extended one: SQLITE_BUSY_SNAPSHOT → SQLITE_BUSY. */
function primaryCode(code: string): string {
  return code.split('_').slice(0, 2).join('_');
}

/** Below this much free space, a disk error is taken for a full disk: SQLite reports one that stops its shared memory file from growing as an I/O error (SQLITE_IOERR_SHMSIZE). */
const FULL_BELOW_BYTES = 1024 * 1024;

function diskIsFull(folder: string): boolean {
  try {
    const { bavail, bsize } = statfsSync(folder);
    return bavail * bsize < FULL_BELOW_BYTES;
  } catch (error) {
    // Cannot tell: then it is the disk error SQLite said.
    void error;
    return false;
  }
}

/** Why a folder cannot be written (EROFS, EACCES…), or null when it can or that cannot be told. */
function writeProblem(folder: string): string | null {
  try {
    accessSync(folder, constants.W_OK);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? null;
  }
}

function homeName(place: StorePlace): string {
  return place.homeFromEnv ? `ENGRAM_HOME (${place.home})` : `Engram's data folder ${place.home}`;
}

/** The file in the way of a folder Engram needs: the nearest existing ancestor of `target`, when it is not a folder. */
function fileInTheWay(target: string): string | null {
  for (let at = path.resolve(target); ; at = path.dirname(at)) {
    try {
      return statSync(at).isDirectory() ? null : at;
    } catch {
      // Not there (ENOENT, or ENOTDIR below a file): look further up.
    }
    if (path.dirname(at) === at) return null;
  }
}

function fromSqlite(code: string, error: Error, place: StorePlace): StoreError | null {
  const file = place.databaseFile;
  const cause = { cause: error };
  const full = () => new StoreError('full', `the disk holding the memory database ${file} is full; free some space and try again (no memory was lost)`, cause);
  switch (primaryCode(code)) {
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return new StoreError('locked', `the memory database ${file} is locked by another process (the memory server, a hook, an MCP server or an import is writing to it); try again in a moment`, cause);
    case 'SQLITE_READONLY':
      return new StoreError('read-only', `cannot write the memory database ${file}: it is read-only (${code}); make the file and its folder writable by this user, or set ENGRAM_HOME to a writable folder`, cause);
    case 'SQLITE_FULL':
      return full();
    case 'SQLITE_IOERR':
      return diskIsFull(path.dirname(file)) ? full() : new StoreError('disk-error', `cannot read or write the memory database ${file}: a disk error (${code}); check the disk and its free space`, cause);
    case 'SQLITE_CORRUPT':
    case 'SQLITE_NOTADB':
      return new StoreError('damaged', `the memory database ${file} is damaged (${error.message}); \`engram doctor --repair\` keeps every memory that can still be read`, cause);
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_PERM':
    case 'SQLITE_AUTH':
      // SQLite makes a file beside the database even to read it (WAL's shared memory).
      if (writeProblem(path.dirname(file)) === 'EROFS') {
        return new StoreError('read-only', `the memory database ${file} is on a read-only file system, and SQLite must write beside it even to read it; make that file system writable, or copy ${place.home} to a writable folder and set ENGRAM_HOME to it`, cause);
      }
      return new StoreError('no-access', `cannot open the memory database ${file} (${code}); make sure this user can read and write it and its folder ${path.dirname(file)}`, cause);
    default:
      return null;
  }
}

function fromFileSystem(code: string, error: NodeJS.ErrnoException, place: StorePlace): StoreError | null {
  const at = error.path;
  // Only failures on Engram's own data: a file the user named (an export, --out) is their business.
  if (!at || !isSameOrInside(place.home, at)) return null;
  const cause = { cause: error };
  const home = homeName(place);
  switch (code) {
    case 'ENOTDIR':
    case 'EEXIST': {
      const file = fileInTheWay(at);
      if (file === place.home) return new StoreError('not-a-folder', `${home} is a file, not a folder; point ENGRAM_HOME at a folder (or unset it) and try again`, cause);
      return new StoreError('not-a-folder', `${file ?? at} is a file where ${home} needs a folder; move it away, or set ENGRAM_HOME to another folder`, cause);
    }
    case 'EACCES':
    case 'EPERM':
      return new StoreError('no-access', `${home} cannot be read or written by this user (${code} on ${at}); fix its permissions, or set ENGRAM_HOME to a folder of your own`, cause);
    case 'EROFS':
      return new StoreError('read-only', `${home} is on a read-only file system (${at}); set ENGRAM_HOME to a writable folder`, cause);
    case 'ENOSPC':
    case 'EDQUOT':
      return new StoreError('full', `the disk holding ${home} is full (${code} on ${at}); free some space and try again (no memory was lost)`, cause);
    default:
      return null;
  }
}

/**
 * What a failure of the store means for the user, or null when it is not one of these (a bug:
 * reported with its stack). SQLite's errors come from the project's one database; file system
 * errors count only inside Engram's data folder.
 */
export function asStoreError(error: unknown, place: StorePlace): StoreError | null {
  if (error instanceof StoreError) return error;
  if (!(error instanceof Error)) return null;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code !== 'string') return null;
  return code.startsWith('SQLITE_') ? fromSqlite(code, error, place) : fromFileSystem(code, error as NodeJS.ErrnoException, place);
}

/** `error` as a StoreError when it is one of these, else as it was. */
export function explainStoreError(error: unknown, place: StorePlace): unknown {
  return asStoreError(error, place) ?? error;
}
