import path from 'node:path';
import type { Declaration } from './declarations';
import type { LanguageId } from './languages';
import type { OpeningDeclarationsMessage } from './openingDeclarationsProtocol';

/** The process's script: the bundle next to this one, or the source when run from source (tests). */
const WORKER_FILE = __filename.endsWith('.ts') ? path.join(__dirname, 'openingDeclarationsWorker.ts') : path.join(__dirname, 'opening-declarations-worker.js');

/** Longer than a start takes; a process still parsing by then is stopped and the server parses. */
const PROCESS_LIMIT_MS = 10_000;
/** What no document took by then is dropped: the documents opened since were the server's to parse. */
const KEEP_MS = 30_000;

type Parsed = Extract<OpeningDeclarationsMessage, { type: 'file' }>;

/**
 * Declarations of the files an editor shows as the memory server starts, parsed in a process of
 * their own while the server loads (openingDeclarationsWorker.ts). Each is handed out once, for
 * exactly the text it was parsed from; anything else is parsed by the server as usual. A process,
 * not a thread: a thread's tree-sitter memory stayed in the server's RSS after it ended (+20–25 MB).
 */
class OpeningFiles {
  private readonly parsed: Parsed[] = [];
  /** File names the process was given, folded: only a document of one of them waits for it. */
  private readonly names: ReadonlySet<string>;
  private finished = false;
  private wake: (() => void)[] = [];

  constructor(files: readonly string[]) {
    this.names = new Set(files.map(foldedName));
    // Required here: the `engram` entry holds this module, and its other commands never load child_process (a hook's milliseconds).
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- required on use, see above
    const { fork } = require('node:child_process') as typeof import('node:child_process');
    const child = fork(WORKER_FILE, files, {
      // From source (tests) the process needs the TypeScript loader; the bundle runs as it is.
      execArgv: WORKER_FILE.endsWith('.ts') ? ['--import', 'tsx'] : [],
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    // The server owns it: it never outlives the server, nor a start by long, nor keeps the server running.
    const stop = () => child.kill();
    process.once('exit', stop);
    const limit = setTimeout(stop, PROCESS_LIMIT_MS);
    limit.unref();
    setTimeout(() => this.parsed.splice(0), KEEP_MS).unref();
    child.unref();
    child.channel?.unref();
    const finish = () => {
      this.finished = true;
      clearTimeout(limit);
      process.removeListener('exit', stop);
      this.wakeWaiters();
    };
    child.on('message', (message: OpeningDeclarationsMessage) => {
      if (message.type === 'done') return finish();
      this.parsed.push(message);
      this.wakeWaiters();
    });
    // A process that could not start or failed: the server parses as it would have without it.
    child.once('error', finish);
    child.once('exit', finish);
  }

  /**
   * The declarations the process found in `text` of `language`, waiting for it while it still
   * works on a file of that name; null when it has none for that text (the caller parses).
   */
  async take(fileName: string, language: LanguageId, text: string): Promise<readonly Declaration[] | null> {
    for (;;) {
      const index = this.parsed.findIndex((p) => p.language === language && p.text === text);
      if (index >= 0) return this.parsed.splice(index, 1)[0]!.declarations;
      if (this.finished || !this.names.has(foldedName(fileName))) return null;
      await new Promise<void>((resolve) => this.wake.push(resolve));
    }
  }

  private wakeWaiters(): void {
    const waiting = this.wake;
    this.wake = [];
    for (const resolve of waiting) resolve();
  }
}

/** A file's name as the process's list is searched: case folded, for case-insensitive disks. */
function foldedName(file: string): string {
  // win32's basename splits at both separators, whichever system the path came from.
  return path.win32.basename(file).toLowerCase();
}

/**
 * The server's one opening process. Kept on the global object: the `engram` entry starts it
 * before it loads the server's bundle (cli/launch.ts), and each bundle has its own copy of this
 * module.
 */
const OPENING = Symbol.for('engram.openingFiles');
const holder = globalThis as { [OPENING]?: Pick<OpeningFiles, 'take'> };

/** Starts parsing the files an editor shows (absolute paths) in a process of their own; once per server. */
export function parseOpeningFiles(files: readonly string[]): void {
  if (!holder[OPENING] && files.length) holder[OPENING] = new OpeningFiles(files);
}

/** The declarations `parseOpeningFiles` found in exactly `text`, once; null when it has none (parse it). */
export function openingDeclarations(fileName: string, language: LanguageId, text: string): Promise<readonly Declaration[] | null> {
  return holder[OPENING]?.take(fileName, language, text) ?? Promise.resolve(null);
}
