import { execFileSync } from 'node:child_process';

/** Git output as text: the bench reads whole histories, so the buffer is large. */
export function git(root: string, args: readonly string[]): string {
  return execFileSync('git', ['-c', 'core.quotePath=false', ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Non-empty lines of git's output. */
export function gitLines(root: string, args: readonly string[]): string[] {
  return git(root, args).split('\n').filter(Boolean);
}

/** Commits and their messages, `\0`-separated as `%H%x00%B%x00`. */
export function commitMessages(root: string, args: readonly string[]): Map<string, string> {
  const fields = git(root, ['log', '--no-merges', '--encoding=UTF-8', '--format=%H%x00%B%x00', ...args]).split('\0');
  const messages = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) messages.set(fields[i]!.trim(), fields[i + 1]!.trim());
  return messages;
}
