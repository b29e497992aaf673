import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { mailboxFolderProblem } from './mailboxFolder';
import { encodeReply, HEARTBEAT_MS, MAILBOX_PID_FILE, REPLY_SUFFIX, REQUEST_ID, REQUEST_SUFFIX, TAKEN_SUFFIX, WRITING_SUFFIX, type MailboxReply, type MailboxRequest } from './mailboxProtocol';
import { mailboxRequestSchema } from './mailboxRequest';

/** A hook's stdin is capped at 8 MB (commands/hook.ts); JSON escaping can double it. */
const MAX_REQUEST_BYTES = 20 * 1024 * 1024;
/** Requests are also looked for this often, in case the folder watcher missed one. */
const SWEEP_MS = HEARTBEAT_MS;
/** Replies nobody fetched (the caller gave up or was killed) and half-written files go after this long. */
const STALE_MS = 60_000;

export interface MailboxListener {
  close(): void;
}

/** A reply, and writes to make after it went out (a hook's injection log): the caller need not wait for them. */
export interface MailboxAnswer {
  readonly reply: MailboxReply;
  readonly afterReply?: () => void;
}

interface Log {
  info(message: string): void;
  warn(message: string): void;
}

function writeWhole(file: string, text: string): void {
  writeFileSync(`${file}${WRITING_SUFFIX}`, text, { mode: 0o600 });
  renameSync(`${file}${WRITING_SUFFIX}`, file);
}

function parseRequest(text: string): MailboxRequest | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  const parsed = mailboxRequestSchema.safeParse(json);
  return parsed.success ? parsed.data : parsed.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ');
}

/**
 * A private folder of this user's own, emptied of a previous server's leftovers. New folders
 * (`run/` too) are made 0700 — a umask can only take bits away; a leftover of this user's own is
 * closed again; a link, a file or another user's folder is refused (mailboxFolder.ts).
 */
function prepareFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(folder, 0o700);
  const problem = mailboxFolderProblem(folder);
  if (problem) throw new Error(problem);
  for (const name of readdirSync(folder)) rmSync(path.join(folder, name), { force: true, recursive: true });
}

/**
 * Takes requests from the window's mailbox (mailboxProtocol.ts) and answers each with `handle`,
 * one at a time. A file watcher says when one came; a sweep every second catches any it missed
 * and clears what callers left behind. A request that is not one gets a clear "not handled"
 * reply, and the server goes on. Callers find the server by its pid file, written last and
 * touched every second (the heartbeat for callers in another pid namespace).
 */
export function openMailbox(folder: string, handle: (request: MailboxRequest) => Promise<MailboxAnswer>, log: Log): MailboxListener {
  prepareFolder(folder);
  const pidFile = path.join(folder, MAILBOX_PID_FILE);
  let closed = false;
  let draining = false;
  let again = false;

  const answer = async (id: string): Promise<void> => {
    const taken = path.join(folder, `${id}${TAKEN_SUFFIX}`);
    try {
      renameSync(path.join(folder, `${id}${REQUEST_SUFFIX}`), taken);
    } catch {
      return; // The caller withdrew it, or another sweep took it.
    }
    let answered: MailboxAnswer;
    try {
      const size = statSync(taken).size;
      const request = size > MAX_REQUEST_BYTES ? `larger than ${MAX_REQUEST_BYTES} bytes` : parseRequest(readFileSync(taken, 'utf8'));
      if (typeof request === 'string') {
        log.warn(`Mailbox: a bad request: ${request}`);
        answered = { reply: { handled: false, reason: `bad request: ${request}` } };
      } else {
        answered = await handle(request).catch((error: unknown) => {
          log.warn(`Mailbox: engram ${request.argv.join(' ').slice(0, 200)} failed: ${(error as Error).stack ?? String(error)}`);
          return { reply: { handled: false as const, reason: `failed in the memory server: ${(error as Error).message}` } };
        });
      }
    } finally {
      rmSync(taken, { force: true });
    }
    writeWhole(path.join(folder, `${id}${REPLY_SUFFIX}`), encodeReply(answered.reply));
    // Before the next request: a session's next hook must see what this one gave it.
    try {
      answered.afterReply?.();
    } catch (error) {
      log.warn(`Mailbox: after answering engram ${id}: ${(error as Error).message}`);
    }
  };

  const pending = (): string[] =>
    readdirSync(folder)
      .filter((name) => name.endsWith(REQUEST_SUFFIX))
      .map((name) => name.slice(0, -REQUEST_SUFFIX.length))
      .filter((id) => REQUEST_ID.test(id));

  const drain = async (): Promise<void> => {
    if (draining) {
      again = true;
      return;
    }
    draining = true;
    try {
      do {
        again = false;
        for (const id of pending()) {
          if (closed) return;
          await answer(id);
        }
      } while (again && !closed);
    } catch (error) {
      log.warn(`Mailbox ${folder}: ${(error as Error).message}`);
    } finally {
      draining = false;
    }
  };

  const sweepStale = () => {
    const now = Date.now();
    for (const name of readdirSync(folder)) {
      if (!name.endsWith(REPLY_SUFFIX) && !name.endsWith(WRITING_SUFFIX) && !name.endsWith(TAKEN_SUFFIX)) continue;
      try {
        if (now - statSync(path.join(folder, name)).mtimeMs > STALE_MS) unlinkSync(path.join(folder, name));
      } catch {
        // Fetched or removed meanwhile.
      }
    }
  };

  let watcher: FSWatcher | undefined;
  const stop = () => {
    if (closed) return;
    closed = true;
    watcher?.close();
    clearInterval(sweeper);
    try {
      // Only this server's folder: a server restarted for the same window may have it already.
      if (readFileSync(pidFile, 'utf8') === String(process.pid)) rmSync(folder, { recursive: true, force: true });
    } catch {
      // Gone already.
    }
  };
  const sweeper = setInterval(() => {
    if (!existsSync(pidFile)) {
      // Removed by someone else: say so once, not every second; callers now run on their own.
      log.warn(`Mailbox ${folder} was removed; hooks and \`engram recall\` start their own process now.`);
      stop();
      return;
    }
    void drain();
    try {
      const now = new Date();
      utimesSync(pidFile, now, now);
      sweepStale();
    } catch (error) {
      log.warn(`Mailbox ${folder}: ${(error as Error).message}`);
    }
  }, SWEEP_MS);
  sweeper.unref();
  try {
    // Only a request's arrival: the replies and renames of each answer would each cost a listing.
    watcher = watch(folder, (_event, name) => {
      if (name === null || String(name).endsWith(REQUEST_SUFFIX)) void drain();
    });
    watcher.on('error', (error) => {
      log.warn(`Mailbox ${folder}: ${error.message}; hooks and \`engram recall\` start their own process instead.`);
      stop();
    });
    writeWhole(pidFile, String(process.pid));
  } catch (error) {
    stop();
    throw error;
  }
  log.info(`Answering hooks and \`engram recall\` in ${folder}.`);
  return { close: stop };
}
