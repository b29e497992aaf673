import type { z } from 'zod';
import type { mailboxRequestSchema } from './mailboxRequest';

/**
 * The memory server's mailbox (docs/architecture.md, "Commands the server answers"): a caller
 * writes `<id>.request` (JSON), the server takes it (renames it to `<id>.taken`) and writes
 * `<id>.reply` (JSON). Every file appears whole: each is written under a `.writing` name first,
 * then renamed. Type-only imports here: the `engram` entry uses these without loading zod.
 */
export type MailboxRequest = z.infer<typeof mailboxRequestSchema>;

export type MailboxReply =
  | { readonly handled: true; readonly stdout: string; readonly stderr: string; readonly exitCode: number }
  /** Not for this server (another project, a command it does not run): the caller runs it itself. */
  | { readonly handled: false; readonly reason: string };

/** The server's process id, written once it takes requests, removed when it stops. */
export const MAILBOX_PID_FILE = 'server.pid';
/** The server touches its pid file this often: a heartbeat for callers that cannot see its pid (another pid namespace). */
export const HEARTBEAT_MS = 1000;
/** A pid file touched this recently belongs to a running server. */
export const HEARTBEAT_FRESH_MS = 3 * HEARTBEAT_MS;
export const REQUEST_SUFFIX = '.request';
export const TAKEN_SUFFIX = '.taken';
export const REPLY_SUFFIX = '.reply';
export const WRITING_SUFFIX = '.writing';
/** Request ids: what a caller may name its files (no separators, no dots). */
export const REQUEST_ID = /^[A-Za-z0-9-]{1,100}$/;

/** Environment variables a command run by the memory server takes from its caller; the rest are the server's. */
export const FORWARDED_ENV_NAMES = ['ENGRAM_WINDOW', 'ENGRAM_PROJECT', 'CLAUDE_PROJECT_DIR', 'ENGRAM_FRONT_DOOR'] as const;

/** Context hooks and `engram recall`: reads that run on every prompt, where starting a process costs more than the work. */
export function servedByMemoryServer(argv: readonly string[]): boolean {
  if (argv[0] === 'hook') return argv.length === 2 && (argv[1] === 'session-start' || argv[1] === 'user-prompt-submit');
  // `--batch -` reads the caller's stdin, which stays with the caller.
  return argv[0] === 'recall' && !argv.some((a) => a === '--batch' || a.startsWith('--batch=') || a === '--help' || a === '-h');
}

/**
 * A reply file: one line of JSON (handled, exit code, how long stdout is), then stdout and
 * stderr as they are. Not all of it JSON: a session start prints up to ~80 KB that is JSON
 * already, and escaping it again and parsing it back cost the caller ~1 ms.
 */
export function encodeReply(reply: MailboxReply): string {
  if (!reply.handled) return `${JSON.stringify(reply)}\n`;
  return `${JSON.stringify({ handled: true, exitCode: reply.exitCode, stdoutLength: reply.stdout.length })}\n${reply.stdout}${reply.stderr}`;
}

/** The reply in a reply file, or null when it is not one. */
export function decodeReply(text: string): MailboxReply | null {
  const end = text.indexOf('\n');
  if (end < 0) return null;
  let head: unknown;
  try {
    head = JSON.parse(text.slice(0, end));
  } catch {
    return null;
  }
  if (typeof head !== 'object' || head === null) return null;
  const { handled, reason, exitCode, stdoutLength } = head as Record<string, unknown>;
  if (handled === false && typeof reason === 'string') return { handled: false, reason };
  if (handled !== true || !Number.isInteger(exitCode) || !Number.isInteger(stdoutLength)) return null;
  const body = text.slice(end + 1);
  if ((stdoutLength as number) < 0 || (stdoutLength as number) > body.length) return null;
  return { handled: true, exitCode: exitCode as number, stdout: body.slice(0, stdoutLength as number), stderr: body.slice(stdoutLength as number) };
}
