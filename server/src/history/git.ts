import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { GIT_LOG_FORMAT, GitLogParser, type GitCommit } from './gitLogParser';

/** Git failed, or is not there: the message says which, with git's own words. */
export class GitError extends Error {}

/**
 * Options that make git's output the same whatever the user's configuration says: no colour, no
 * signatures, the root commit shown as a creation, messages in UTF-8.
 */
const STABLE_LOG = ['--no-color', '--no-show-signature', '--root', '--encoding=UTF-8'];

const GIT_ENV = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' };

/** Runs git; its stdout is collected, or given chunk by chunk to `onChunk`. */
function run(cwd: string, args: readonly string[], onChunk?: (chunk: Buffer) => void): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const git = spawn('git', args, { cwd, env: GIT_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    git.stdout.on('data', (chunk: Buffer) => (onChunk ? onChunk(chunk) : chunks.push(chunk)));
    git.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    git.on('error', (error) => reject(new GitError(`git could not run: ${error.message}`)));
    git.on('close', (code) => resolve({ code, stdout: Buffer.concat(chunks), stderr: stderr.trim() }));
  });
}

async function output(cwd: string, args: readonly string[]): Promise<string> {
  const result = await run(cwd, args);
  if (result.code !== 0) throw new GitError(`git ${args[0]} failed: ${result.stderr || `exit ${result.code}`}`);
  return result.stdout.toString('utf8').trim();
}

/**
 * The commit HEAD names, or null in a repository without commits. A folder that is not the top of
 * a work tree is a GitError: a project without git of its own must not take the history of a
 * repository around it (a home folder kept in git).
 */
export async function headCommit(cwd: string): Promise<string | null> {
  const top = await run(cwd, ['rev-parse', '--show-toplevel']);
  if (top.code !== 0) throw new GitError(`${cwd} is not in a git work tree`);
  if (realpathSync.native(top.stdout.toString('utf8').trim()) !== realpathSync.native(cwd)) throw new GitError(`${cwd} is not the top folder of its git repository`);
  const head = await run(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  return head.code === 0 ? head.stdout.toString('latin1').trim() : null;
}

/** The commit a revision names (`--since v1.0`), or a GitError saying it names none. */
export async function resolveCommit(cwd: string, revision: string): Promise<string> {
  // `--end-of-options`: a revision that looks like an option is still a revision.
  const result = await run(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`]);
  if (result.code !== 0) throw new GitError(`${revision} names no commit in this repository`);
  return result.stdout.toString('latin1').trim();
}

/** Where git keeps HEAD (the worktree's own folder) and the refs (shared by worktrees). */
export async function gitFolders(cwd: string): Promise<{ readonly gitDir: string; readonly commonDir: string }> {
  // --git-common-dir is relative to `cwd` (git 2.31's --path-format=absolute is too new to rely on).
  const [gitDir, commonDir] = (await output(cwd, ['rev-parse', '--absolute-git-dir', '--git-common-dir'])).split('\n');
  return { gitDir: gitDir!, commonDir: path.resolve(cwd, commonDir ?? gitDir!) };
}

/** Which commits a run reads: reachable from `tip` and from none of `exclude`, the newest `max` of them. */
export interface CommitRange {
  readonly tip: string;
  readonly exclude: readonly string[];
  readonly max?: number;
}

function rangeArgs(range: CommitRange): string[] {
  // --ignore-missing: a tip recorded before a rebase and a gc is gone, and is then no boundary.
  return ['--no-merges', '--ignore-missing', ...(range.max === undefined ? [] : [`--max-count=${range.max}`]), range.tip, ...(range.exclude.length ? ['--not', ...range.exclude] : [])];
}

/** How many commits a range holds (what a progress bar counts to). */
export async function countCommits(cwd: string, range: CommitRange): Promise<number> {
  return Number(await output(cwd, ['rev-list', '--count', ...rangeArgs(range)]));
}

/**
 * The non-merge commits of a range with the files each changed, oldest first, renames found by
 * git's rename detection (`-M`) — one `git log` for all of them.
 */
export async function logCommits(cwd: string, range: CommitRange): Promise<GitCommit[]> {
  const parser = new GitLogParser();
  const commits: GitCommit[] = [];
  const args = ['log', ...STABLE_LOG, '-z', '--raw', '--no-abbrev', '-M', `--format=${GIT_LOG_FORMAT}`, '--reverse', ...rangeArgs(range)];
  const result = await run(cwd, args, (chunk) => commits.push(...parser.push(chunk)));
  if (result.code !== 0) throw new GitError(`git log failed: ${result.stderr || `exit ${result.code}`}`);
  commits.push(...parser.end());
  return commits;
}
