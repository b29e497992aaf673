import { existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sha256Hex } from '../util/hashing';
import { namesBelow, pathKey } from './pathIdentity';
import { hostPaths, type PlatformPaths } from './platformPaths';

/**
 * The user's home folder as the platform's own tools find it: USERPROFILE on Windows (what
 * Node's os.homedir() and so Claude Code use there), HOME elsewhere.
 */
export function userHome(env: NodeJS.ProcessEnv = process.env, paths: PlatformPaths = hostPaths): string {
  const home = paths.platform === 'win32' ? env.USERPROFILE || env.HOME : env.HOME;
  return home || os.homedir();
}

/**
 * Where Engram keeps its data: `$ENGRAM_HOME`, else the platform's per-user data folder —
 * `%LOCALAPPDATA%\engram`, `~/Library/Application Support/engram`, `$XDG_DATA_HOME/engram` or
 * `~/.local/share/engram`. Never inside the user's repository.
 */
export function engramHome(env: NodeJS.ProcessEnv = process.env, paths: PlatformPaths = hostPaths): string {
  const p = paths.path;
  if (env.ENGRAM_HOME) return p.resolve(env.ENGRAM_HOME);
  const home = userHome(env, paths);
  switch (paths.platform) {
    case 'darwin':
      return p.join(home, 'Library', 'Application Support', 'engram');
    case 'win32':
      return p.join(env.LOCALAPPDATA || p.join(home, 'AppData', 'Local'), 'engram');
    default:
      // The XDG spec says to ignore a relative value: it would move the data with the cwd.
      return p.join(env.XDG_DATA_HOME && p.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : p.join(home, '.local', 'share'), 'engram');
  }
}

/** `<basename>-<sha256(key)[0:16]>/memory.db` in the projects folder: readable in a file manager, unique per key. */
function databaseFileIn(projectsFolder: string, key: string, paths: PlatformPaths): string {
  const digest = sha256Hex(key).slice(0, 16);
  const slug = paths.path.basename(key).replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 40) || 'root';
  return paths.path.join(projectsFolder, `${slug}-${digest}`, 'memory.db');
}

/**
 * How a root may have been spelled when keys were the root as given: as given, and on Windows
 * with the drive letter in either case — VS Code says `c:\Repo`, terminals `C:\Repo`.
 */
function spellingsBeforeCaseFolding(root: string, paths: PlatformPaths): string[] {
  const drive = paths.platform === 'win32' ? /^[A-Za-z](?=:)/.exec(root)?.[0] : undefined;
  if (!drive) return [root];
  const rest = root.slice(1);
  return [...new Set([root, drive.toLowerCase() + rest, drive.toUpperCase() + rest])];
}

/** Where a project's database is made, and where an older Engram may already have made it. */
export interface DatabaseLocations {
  /** Keyed by `pathKey`: one file for every spelling of the root. */
  readonly current: string;
  /**
   * Keyed by the root as spelled, as before keys were case-folded; used while one exists, so no
   * one loses memories. None where case counts: there the key is the root as it always was.
   */
  readonly earlier: readonly string[];
}

export function databaseLocations(projectRoot: string, env: NodeJS.ProcessEnv = process.env, paths: PlatformPaths = hostPaths): DatabaseLocations {
  const projectsFolder = paths.path.join(engramHome(env, paths), 'projects');
  const current = databaseFileIn(projectsFolder, pathKey(projectRoot, paths), paths);
  if (!paths.caseInsensitive) return { current, earlier: [] };
  const earlier = spellingsBeforeCaseFolding(paths.path.resolve(projectRoot), paths)
    .map((spelling) => databaseFileIn(projectsFolder, spelling, paths))
    .filter((file) => file !== current);
  return { current, earlier };
}

/** The database file of one project, derived from its absolute root path alone (see `databaseLocations`). */
export function databasePathFor(projectRoot: string, env: NodeJS.ProcessEnv = process.env, paths: PlatformPaths = hostPaths): string {
  const { current, earlier } = databaseLocations(projectRoot, env, paths);
  return earlier.find((file) => existsSync(file)) ?? current;
}

function isGitRoot(dir: string): boolean {
  // `.git` is a folder in a normal clone and a file in worktrees and submodules.
  return existsSync(path.join(dir, '.git'));
}

/**
 * The project a folder belongs to, so that the extension, the CLI and the MCP server started
 * anywhere inside it agree: the enclosing git root; else the nearest ancestor that already has a
 * database; else the folder itself.
 */
export function resolveProjectRoot(start: string, env: NodeJS.ProcessEnv = process.env): string {
  let dir = path.resolve(start);
  try {
    if (!statSync(dir).isDirectory()) dir = path.dirname(dir);
  } catch {
    // A path that does not exist yet is taken as a folder: the caller will report it if it matters.
  }
  const ancestors: string[] = [];
  for (let current = dir; ; current = path.dirname(current)) {
    ancestors.push(current);
    if (isGitRoot(current)) return current;
    if (path.dirname(current) === current) break;
  }
  return ancestors.find((candidate) => existsSync(databasePathFor(candidate, env))) ?? dir;
}

/**
 * A project-relative path with '/' separators, or null when the file is outside the project (or
 * is its root). The names below the root are kept as `file` spells them; the root itself may be
 * spelled differently where case does not count.
 */
export function toProjectPath(projectRoot: string, file: string, paths: PlatformPaths = hostPaths): string | null {
  const names = namesBelow(projectRoot, paths.path.resolve(projectRoot, file), paths);
  return names && names.length > 0 ? names.join('/') : null;
}

/** Where a project path goes when `from` (a file or a folder) is renamed to `to`; null when unaffected. */
export function renamedPath(projectPath: string, from: string, to: string): string | null {
  if (projectPath === from) return to;
  return projectPath.startsWith(`${from}/`) ? to + projectPath.slice(from.length) : null;
}
