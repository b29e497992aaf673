import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './tempDirs';

/** A real git repository in a temporary folder, with commits made at chosen times by a chosen author. */
export interface GitRepo {
  readonly root: string;
  /** Runs git in the repository and gives its stdout (trimmed). */
  git(...args: string[]): string;
  write(file: string, content: string | Uint8Array): void;
  remove(file: string): void;
  /** `git mv`, into a folder made if needed. */
  move(from: string, to: string): void;
  /** Commits everything in the work tree (`git add -A`); returns the new commit's id. */
  commit(message: string, options?: { readonly at?: Date; readonly author?: string; readonly allowEmpty?: boolean }): string;
}

/** Times of test commits: one a day from 2021-03-01, so each commit's author time is known. */
export function dayOf(n: number): Date {
  return new Date(Date.UTC(2021, 2, 1 + n, 12));
}

export function gitRepo(prefix = 'engram-git-'): GitRepo {
  const root = tempDir(prefix);
  const run = (args: readonly string[], env: NodeJS.ProcessEnv = {}) =>
    execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'core.autocrlf=false', ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...env },
    }).trim();
  run(['init', '--quiet', '--initial-branch=main']);
  run(['config', 'user.name', 'Test Author']);
  run(['config', 'user.email', 'author@example.com']);
  let commits = 0;
  return {
    root,
    git: (...args) => run(args),
    write(file, content) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), content);
    },
    remove(file) {
      rmSync(path.join(root, file));
    },
    move(from, to) {
      mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
      run(['mv', from, to]);
    },
    commit(message, options = {}) {
      const date = (options.at ?? dayOf(commits)).toISOString();
      commits++;
      const author = options.author ?? 'Test Author';
      run(['add', '-A']);
      run(['commit', '--quiet', ...(options.allowEmpty ? ['--allow-empty'] : []), '-m', message], {
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
        GIT_AUTHOR_NAME: author,
        GIT_AUTHOR_EMAIL: 'author@example.com',
      });
      return run(['rev-parse', 'HEAD']);
    },
  };
}
