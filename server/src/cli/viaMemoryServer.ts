import { askMemoryServer, findMemoryServer } from '../mailbox/mailboxClient';
import { FORWARDED_ENV_NAMES, servedByMemoryServer, type MailboxRequest } from '../mailbox/mailboxProtocol';
import type { CliIO } from './command';
import { readStdinSync } from './readStdinSync';

/** A hook waits this long for the server before running itself, within its 2 s limit. */
const HOOK_SERVER_WAIT_MS = 1000;
/** Stdin of a hook, read before asking (the default hook limit; `engram hook` applies the configured one). */
const HOOK_STDIN_MS = 2000;
const COMMAND_SERVER_WAIT_MS = 5000;

export type ViaServer =
  /** The server ran it: print this, exit with this code. */
  | { readonly ran: true; readonly exitCode: number; readonly stdout: string; readonly stderr: string }
  /** Run it here, with what was already read. */
  | { readonly ran: false; readonly io: CliIO };

/**
 * `engram hook session-start|user-prompt-submit` and `engram recall`, in a terminal of a VS Code
 * window with Engram (ENGRAM_MAILBOX), are answered by that window's memory server, which has the
 * project open and its caches warm: the process only forwards its arguments and stdin. Without a
 * server, or when it does not answer in time, the command runs here as always. The server is
 * looked for before stdin is read: a stale ENGRAM_MAILBOX leaves stdin to the command, which
 * reads it within its time limit. Synchronous and node:fs only: an event loop turn and node:net
 * would cost more than the server's answer.
 */
export function viaMemoryServer(argv: readonly string[], io: CliIO): ViaServer {
  const folder = io.env.ENGRAM_MAILBOX;
  if (!folder || !servedByMemoryServer(argv)) return { ran: false, io };
  const startedAt = Date.now();
  const mailbox = findMemoryServer(folder);
  if (!mailbox) return { ran: false, io: { ...io, startedAt } };
  try {
    const isHook = argv[0] === 'hook';
    const stdin = isHook ? readStdinSync(HOOK_STDIN_MS) : undefined;
    const local: ViaServer = { ran: false, io: { ...io, startedAt, ...(stdin ? { stdin } : {}) } };
    if (stdin && !stdin.ended) return local;
    const env: MailboxRequest['env'] = {};
    for (const name of FORWARDED_ENV_NAMES) if (io.env[name] !== undefined) env[name] = io.env[name];
    const request: MailboxRequest = { argv: [...argv], cwd: io.cwd, env, ...(stdin ? { stdin: stdin.text } : {}) };
    const reply = askMemoryServer(mailbox, request, isHook ? HOOK_SERVER_WAIT_MS : COMMAND_SERVER_WAIT_MS);
    if (!reply?.handled) return local;
    return { ran: true, exitCode: reply.exitCode, stdout: reply.stdout, stderr: reply.stderr };
  } finally {
    mailbox.close();
  }
}
