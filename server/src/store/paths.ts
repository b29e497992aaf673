import { existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sha256Hex } from '../util/hashing';

/**
 * Where Engram keeps its data: `$ENGRAM_HOME`, else the platform's per-user data folder.
 * Never inside the user's repository.
 */
export function engramHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ENGRAM_HOME) return path.resolve(env.ENGRAM_HOME);
  const home = env.HOME || env.USERPROFILE || os.homedir();
  switch (process.platform) {
    case 'darwin':
      return path.join(home, 'Library', 'Application Support', 'engram');
    case 'win32':
      return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'engram');
    default:
      return path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'engram');
  }
}

/** The database file of one project, derived from its absolute root path alone. */
export function databasePathFor(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const root = path.resolve(projectRoot);
  const digest = sha256Hex(root).slice(0, 16);
  const slug = path.basename(root).replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 40) || 'root';
  return path.join(engramHome(env), 'projects', `${slug}-${digest}`, 'memory.db');
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

/** A project-relative path with '/' separators, or null when the file is outside the project. */
export function toProjectPath(projectRoot: string, file: string): string | null {
  const relative = path.relative(projectRoot, path.resolve(projectRoot, file));
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return null;
  return relative.split(path.sep).join('/');
}

/** Where a project path goes when `from` (a file or a folder) is renamed to `to`; null when unaffected. */
export function renamedPath(projectPath: string, from: string, to: string): string | null {
  if (projectPath === from) return to;
  return projectPath.startsWith(`${from}/`) ? to + projectPath.slice(from.length) : null;
}
