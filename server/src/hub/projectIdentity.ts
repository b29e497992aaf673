import { execFile } from 'node:child_process';
import path from 'node:path';

/** The project has no identity on the hub: the message says how to give it one. */
export class ProjectIdentityError extends Error {}

/**
 * A git remote as the hub names its project: host and path, lower-case host, without user,
 * password, default port, scheme or `.git`, so every clone (ssh or https) maps to one project:
 * `git@github.com:Org/Repo.git` and `https://user@GitHub.com/Org/Repo` are `github.com/Org/Repo`.
 * A remote that is a folder (a bare repository on a shared disk) is `file:` and its absolute path.
 */
export function normalizeRemote(remote: string): string {
  const trimmed = remote.trim().replace(/\/+$/, '').replace(/\.git$/, '').replace(/\/+$/, '');
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(trimmed);
  if (scp && !/^[a-z]:$/i.test(`${scp[1]}:`) && !trimmed.includes('://')) return `${scp[1]!.toLowerCase()}/${scp[2]!.replace(/^\/+/, '')}`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    const url = new URL(trimmed);
    if (url.protocol === 'file:') return `file:${decodeURIComponent(url.pathname).replace(/\.git$/, '')}`;
    const defaultPort = { 'ssh:': '22', 'https:': '443', 'http:': '80', 'git:': '9418' }[url.protocol];
    const port = url.port && url.port !== defaultPort ? `:${url.port}` : '';
    return `${url.hostname.toLowerCase()}${port}${decodeURIComponent(url.pathname).replace(/\.git$/, '').replace(/\/+$/, '')}`;
  }
  return `file:${path.resolve(trimmed).replace(/\.git$/, '')}`;
}

function remoteUrl(root: string, name: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['remote', 'get-url', name], { cwd: root, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, timeout: 5000 }, (error, stdout) => resolve(error ? null : stdout.trim() || null));
  });
}

/**
 * The project's name on the hub: ENGRAM_TEAM_PROJECT when set, else its `origin` remote (or the
 * only remote) normalised. A project without a remote has none: it cannot be one the team shares.
 */
export async function hubProjectOf(root: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.ENGRAM_TEAM_PROJECT?.trim()) return env.ENGRAM_TEAM_PROJECT.trim();
  const remote = (await remoteUrl(root, 'origin')) ?? (await onlyRemote(root));
  if (!remote) throw new ProjectIdentityError(`${root} has no git remote: the hub names a project by its remote (add one with \`git remote add origin URL\`, or set ENGRAM_TEAM_PROJECT)`);
  return normalizeRemote(remote);
}

function onlyRemote(root: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['remote'], { cwd: root, timeout: 5000 }, (error, stdout) => {
      const names = error ? [] : stdout.split('\n').filter(Boolean);
      if (names.length !== 1) return resolve(null);
      void remoteUrl(root, names[0]!).then(resolve);
    });
  });
}
