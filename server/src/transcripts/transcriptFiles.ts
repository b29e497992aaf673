import { promises as fsp } from 'node:fs';
import type { Dirent } from 'node:fs';
import path from 'node:path';
import { foldCase, isSameOrInside } from '../paths/pathIdentity';
import { hostPaths, type PlatformPaths } from '../paths/platformPaths';
import { readNewLines } from './lineReader';
import { encodeProjectFolder, projectsDir, subfolderPrefix } from './projectFolder';

export interface TranscriptFile {
  readonly path: string;
  readonly sessionId: string;
  /** A main session transcript, or one of its sub-agents' (`<session>/subagents/agent-<id>.jsonl`). */
  readonly kind: 'session' | 'subagent';
}

/** The cwd shows up within the first few records (after queue bookkeeping); don't scan a whole file for it. */
const CWD_SCAN_LINES = 50;

async function listDir(dir: string): Promise<Dirent[]> {
  try {
    return await fsp.readdir(dir, { withFileTypes: true });
  } catch (error) {
    // A project that never ran Claude Code, or a session without sub-agents, simply has no folder.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The `cwd` of the first record that has one, or null when none appears near the top. */
async function sessionCwd(file: string): Promise<string | null> {
  const { lines } = await readNewLines(file, 0);
  let seen = 0;
  for await (const line of lines) {
    if (++seen > CWD_SCAN_LINES) break;
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch {
      continue; // A torn or garbled line says nothing about the cwd; the next one may.
    }
    const cwd = (value as { cwd?: unknown } | null)?.cwd;
    if (typeof cwd === 'string') return cwd;
  }
  return null;
}

async function subagentFiles(folder: string, sessionId: string): Promise<TranscriptFile[]> {
  const dir = path.join(folder, sessionId, 'subagents');
  return (await listDir(dir))
    .filter((entry) => entry.isFile() && entry.name.startsWith('agent-') && entry.name.endsWith('.jsonl'))
    .map((entry) => ({ path: path.join(dir, entry.name), sessionId, kind: 'subagent' as const }));
}

/**
 * The transcripts in one project folder whose session ran in `root` or below it. Folder names are
 * lossy (`/a/b-c` and `/a/b/c` share one), so each session is confirmed by its recorded cwd; in the
 * project's own folder a session whose cwd cannot be read yet is kept.
 */
async function transcriptsIn(folder: string, root: string, isOwnFolder: boolean, paths: PlatformPaths): Promise<TranscriptFile[]> {
  const entries = await listDir(folder);
  const sessionIds = new Set<string>();
  for (const entry of entries) {
    if (entry.isFile() && entry.name.endsWith('.jsonl')) sessionIds.add(entry.name.slice(0, -'.jsonl'.length));
    else if (entry.isDirectory()) sessionIds.add(entry.name);
  }
  const found: TranscriptFile[] = [];
  for (const sessionId of sessionIds) {
    const mainFile = path.join(folder, `${sessionId}.jsonl`);
    const hasMain = entries.some((e) => e.isFile() && e.name === `${sessionId}.jsonl`);
    const subagents = await subagentFiles(folder, sessionId);
    const probe = hasMain ? mainFile : subagents[0]?.path;
    if (!probe) continue;
    const cwd = await sessionCwd(probe);
    if (cwd === null ? !isOwnFolder : !isSameOrInside(root, cwd, paths)) continue;
    if (hasMain) found.push({ path: mainFile, sessionId, kind: 'session' });
    found.push(...subagents);
  }
  return found;
}

/**
 * Every Claude Code transcript (sessions and sub-agents) of sessions whose cwd is `projectRoot` or
 * inside it. `paths` says how the project's and the sessions' paths compare: on Windows and macOS
 * `C:\Repo`, `c:\Repo` and `C:\repo` are one folder, and so are their transcript folders
 * (`C--Repo`, `c--Repo`), which Claude Code names after the cwd as it was spelled.
 */
export async function findTranscripts(projectRoot: string, env: NodeJS.ProcessEnv, paths: PlatformPaths = hostPaths): Promise<TranscriptFile[]> {
  const root = paths.path.resolve(projectRoot);
  const base = projectsDir(env);
  const fold = (name: string) => foldCase(name, paths);
  const ownFolder = fold(encodeProjectFolder(root));
  const prefix = fold(subfolderPrefix(root));
  const found: TranscriptFile[] = [];
  for (const entry of await listDir(base)) {
    if (!entry.isDirectory()) continue;
    const isOwnFolder = fold(entry.name) === ownFolder;
    if (!isOwnFolder && !fold(entry.name).startsWith(prefix)) continue;
    found.push(...(await transcriptsIn(path.join(base, entry.name), root, isOwnFolder, paths)));
  }
  return found.sort((a, b) => a.path.localeCompare(b.path));
}
