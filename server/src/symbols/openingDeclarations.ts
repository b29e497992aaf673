import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Declaration } from './declarations';
import type { LanguageId } from './languages';
import type { OpeningDeclarationsData, OpeningDeclarationsMessage } from './openingDeclarationsProtocol';

/** The thread's script: the bundle next to this one, or the source when run from source (tests). */
const WORKER_FILE = __filename.endsWith('.ts') ? path.join(__dirname, 'openingDeclarationsWorker.ts') : path.join(__dirname, 'opening-declarations-worker.js');

/** Longer than a start takes; a thread still parsing by then is stopped and the server parses. */
const THREAD_LIMIT_MS = 10_000;

type Parsed = Extract<OpeningDeclarationsMessage, { type: 'file' }>;

/**
 * Declarations of the files an editor shows as the memory server starts, parsed on a thread of
 * their own while the server loads (openingDeclarationsWorker.ts). Each is handed out once, for
 * exactly the text it was parsed from; anything else is parsed by the server as usual.
 */
class OpeningFiles {
  private readonly parsed: Parsed[] = [];
  /** File names the thread was given, folded: only a document of one of them waits for it. */
  private readonly names: ReadonlySet<string>;
  private finished = false;
  private wake: (() => void)[] = [];

  constructor(files: readonly string[]) {
    this.names = new Set(files.map(foldedName));
    const data: OpeningDeclarationsData = { files };
    const worker = WORKER_FILE.endsWith('.ts')
      ? // Run from source (tests): a thread does not inherit the test run's TypeScript loader.
        new Worker(`require('tsx/cjs'); require(${JSON.stringify(WORKER_FILE)});`, { eval: true, workerData: data })
      : new Worker(WORKER_FILE, { workerData: data });
    // Never what keeps the server running.
    worker.unref();
    const limit = setTimeout(() => void worker.terminate(), THREAD_LIMIT_MS);
    limit.unref();
    const finish = () => {
      this.finished = true;
      clearTimeout(limit);
      this.wakeWaiters();
    };
    worker.on('message', (message: OpeningDeclarationsMessage) => {
      if (message.type === 'done') return finish();
      this.parsed.push(message);
      this.wakeWaiters();
    });
    // A thread that could not start or failed: the server parses as it would have without it.
    worker.on('error', finish);
    worker.on('exit', finish);
  }

  /**
   * The declarations the thread found in `text` of `language`, waiting for it while it still
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

/** A file's name as the thread's list is searched: case folded, for case-insensitive disks. */
function foldedName(file: string): string {
  // win32's basename splits at both separators, whichever system the path came from.
  return path.win32.basename(file).toLowerCase();
}

/**
 * The process's one thread's results. Kept on the global object: the `engram` entry starts the
 * thread before it loads the server's bundle (cli/launch.ts), and each bundle has its own copy
 * of this module.
 */
const OPENING = Symbol.for('engram.openingFiles');
const holder = globalThis as { [OPENING]?: Pick<OpeningFiles, 'take'> };

/** Starts parsing the files an editor shows (absolute paths) on a thread of their own; once per process. */
export function parseOpeningFiles(files: readonly string[]): void {
  if (!holder[OPENING] && files.length) holder[OPENING] = new OpeningFiles(files);
}

/** The declarations `parseOpeningFiles` found in exactly `text`, once; null when it has none (parse it). */
export function openingDeclarations(fileName: string, language: LanguageId, text: string): Promise<readonly Declaration[] | null> {
  return holder[OPENING]?.take(fileName, language, text) ?? Promise.resolve(null);
}
