import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync, utimesSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { folderStatProblem, openFolderHandle, type FolderHandle, type MailboxFolder } from './mailboxFolder';
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

/** Made in every mailbox the server creates: a folder without it is not Engram's to clear or remove. */
const MARKER_FILE = '.engram-mailbox';
/** What the server and its callers write in a mailbox (mailboxProtocol.ts: `<id>.request`, `.taken`, `.reply`, each first as `.writing`, and `server.pid`): the only names it ever removes. */
const OWN_ENTRY = /^(?:[A-Za-z0-9-]{1,100}\.(?:request|taken|reply|writing|reply\.writing)|server\.pid(?:\.writing)?)$/;

function isOwnEntry(name: string): boolean {
  return name !== MARKER_FILE && OWN_ENTRY.test(name);
}

function removeIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Taken, fetched or removed meanwhile.
  }
}

/** Whether the marker is there as a file of this user's own (Engram made this mailbox). */
function hasMarker(folder: MailboxFolder): boolean {
  try {
    const stat = lstatSync(folder.entry(MARKER_FILE));
    return stat.isFile() && (typeof process.getuid !== 'function' || stat.uid === process.getuid());
  } catch {
    return false;
  }
}

/**
 * The window's mailbox, made now (with its marker) or left by an earlier server of this window
 * (its marker is there), opened by handle, private, with that server's leftovers removed. A
 * folder Engram did not make is refused and left as it is; so are a link, a file, another user's
 * folder and a folder above that others can write to (mailboxFolder.ts). New folders (`run/`
 * too) are made 0700 — a umask can only take bits away — and a leftover of this user's own is
 * closed again.
 */
function prepareFolder(folder: string): FolderHandle {
  mkdirSync(path.dirname(folder), { recursive: true, mode: 0o700 });
  let made = false;
  try {
    mkdirSync(folder, { mode: 0o700 });
    made = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const handle = openFolderHandle(folder);
  if ('problem' in handle) {
    // Made just now and still empty: rmdir takes nothing else with it.
    if (made) rmdirSync(folder);
    throw new Error(handle.problem);
  }
  try {
    if (typeof process.getuid === 'function' && handle.stat().uid !== process.getuid()) throw new Error(`${folder} is not a folder of this user's own`);
    if (made) closeSync(openSync(handle.entry(MARKER_FILE), 'wx', 0o600));
    else if (!hasMarker(handle)) throw new Error(`${folder} was not made by Engram: it is left as it is`);
    handle.closeToOthers();
    const problem = folderStatProblem(folder, handle.stat());
    if (problem) throw new Error(problem);
    for (const name of handle.list()) if (isOwnEntry(name)) removeIfThere(handle.entry(name));
    return handle;
  } catch (error) {
    // A folder made just now is Engram's to take away again.
    if (made) removeMailbox(handle);
    handle.close();
    throw error;
  }
}

/**
 * Removes what Engram put in the mailbox, then the folder when nothing else is in it — by path
 * only while that path still leads to this folder.
 */
function removeMailbox(mailbox: MailboxFolder): void {
  const names = mailbox.list();
  for (const name of names) if (isOwnEntry(name)) removeIfThere(mailbox.entry(name));
  if (!names.every((name) => name === MARKER_FILE || isOwnEntry(name))) return;
  removeIfThere(mailbox.entry(MARKER_FILE));
  try {
    if (mailbox.isAt(mailbox.path)) rmdirSync(mailbox.path);
  } catch (error) {
    // A caller's request came in meanwhile: the folder stays (the next server of the window clears it).
    if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw error;
  }
}

/**
 * Takes requests from the window's mailbox (mailboxProtocol.ts) and answers each with `handle`,
 * one at a time. A file watcher says when one came; a sweep every second catches any it missed
 * and clears what callers left behind. A request that is not one gets a clear "not handled"
 * reply, and the server goes on. Callers find the server by its pid file, written last and
 * touched every second (the heartbeat for callers in another pid namespace).
 */
export function openMailbox(folder: string, handle: (request: MailboxRequest) => Promise<MailboxAnswer>, log: Log): MailboxListener {
  const mailbox = prepareFolder(folder);
  const pidFile = mailbox.entry(MAILBOX_PID_FILE);
  let closed = false;
  let draining = false;
  let again = false;

  const answer = async (id: string): Promise<void> => {
    const taken = mailbox.entry(`${id}${TAKEN_SUFFIX}`);
    try {
      renameSync(mailbox.entry(`${id}${REQUEST_SUFFIX}`), taken);
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
      removeIfThere(taken);
    }
    writeWhole(mailbox.entry(`${id}${REPLY_SUFFIX}`), encodeReply(answered.reply));
    // Before the next request: a session's next hook must see what this one gave it.
    try {
      answered.afterReply?.();
    } catch (error) {
      log.warn(`Mailbox: after answering engram ${id}: ${(error as Error).message}`);
    }
  };

  const pending = (): string[] =>
    mailbox
      .list()
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
    for (const name of mailbox.list()) {
      if (!isOwnEntry(name) || (!name.endsWith(REPLY_SUFFIX) && !name.endsWith(WRITING_SUFFIX) && !name.endsWith(TAKEN_SUFFIX))) continue;
      try {
        if (now - statSync(mailbox.entry(name)).mtimeMs > STALE_MS) unlinkSync(mailbox.entry(name));
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
      if (readFileSync(pidFile, 'utf8') === String(process.pid)) removeMailbox(mailbox);
    } catch {
      // Gone already.
    }
    mailbox.close();
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
