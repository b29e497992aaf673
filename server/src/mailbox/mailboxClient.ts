import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { openMailboxFolder, type MailboxFolder } from './mailboxFolder';
import { decodeReply, HEARTBEAT_FRESH_MS, MAILBOX_PID_FILE, REPLY_SUFFIX, REQUEST_SUFFIX, WRITING_SUFFIX, type MailboxReply, type MailboxRequest } from './mailboxProtocol';

/** How often a waiting caller looks for the reply: often at first (a hook is answered in a few ms), then less. */
function pollMs(waitedMs: number): number {
  return waitedMs < 10 ? 0.1 : waitedMs < 100 ? 0.5 : 2;
}
/** How often a waiting caller checks that the server still runs. */
const ALIVE_CHECK_MS = 50;

function remove(file: string): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Whether the server runs: its pid file names a running process, or — for a caller in another
 * pid namespace (a sandboxed terminal), where that pid means nothing — the server touched the
 * file within the last few seconds.
 */
function serverRuns(mailbox: MailboxFolder): boolean {
  const pidFile = mailbox.entry(MAILBOX_PID_FILE);
  const pid = Number(readIfThere(pidFile));
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    try {
      return Date.now() - statSync(pidFile).mtimeMs < HEARTBEAT_FRESH_MS;
    } catch {
      return false;
    }
  }
}

/**
 * The mailbox of a running memory server, opened (the caller closes it), or null — never
 * throws — when the folder is missing, not a private folder of this user's own, or its server
 * is not running. Cheap: a caller asks it before it waits for anything, stdin included.
 */
export function findMemoryServer(folder: string): MailboxFolder | null {
  const mailbox = openMailboxFolder(folder);
  if ('problem' in mailbox) return null;
  if (serverRuns(mailbox)) return mailbox;
  mailbox.close();
  return null;
}

/**
 * Asks the memory server to run a command, and waits for its reply — synchronously: `engram`
 * answered by the server never starts an event loop nor loads node:net, which costs a hook more
 * than the server's whole answer. Returns null — never throws — when the server stopped, it did
 * not answer within `timeoutMs`, or the reply is not one: the caller then runs the command
 * itself. A request still untaken then is withdrawn; one the server already took is answered
 * into the void (its reply is swept away later).
 */
export function askMemoryServer(mailbox: MailboxFolder, request: MailboxRequest, timeoutMs: number): MailboxReply | null {
  const id = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const file = (suffix: string) => mailbox.entry(`${id}${suffix}`);
  try {
    writeFileSync(file(WRITING_SUFFIX), JSON.stringify(request), { mode: 0o600, flag: 'wx' });
    renameSync(file(WRITING_SUFFIX), file(REQUEST_SUFFIX));
  } catch {
    remove(file(WRITING_SUFFIX));
    return null;
  }
  const started = Date.now();
  let checkedAlive = started;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const text = readIfThere(file(REPLY_SUFFIX));
    if (text !== undefined) {
      remove(file(REPLY_SUFFIX));
      return decodeReply(text);
    }
    const now = Date.now();
    if (now - started >= timeoutMs) {
      remove(file(REQUEST_SUFFIX));
      return null;
    }
    if (now - checkedAlive >= ALIVE_CHECK_MS) {
      checkedAlive = now;
      if (!serverRuns(mailbox)) {
        remove(file(REQUEST_SUFFIX));
        return null;
      }
    }
    Atomics.wait(pause, 0, 0, pollMs(now - started));
  }
}
