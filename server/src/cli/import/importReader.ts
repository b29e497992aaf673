import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ImportBatch } from './importBatches';
import { unpackBatch } from './packedBatch';
import { grantCredit, newCredits, stopReader, type ImportWorkerData, type ImportWorkerMessage } from './importProtocol';

/**
 * Memories the reader thread sends at a time. Few, so that they die young: a batch is garbage
 * in the reader once sent and in the main thread once written, and batches of 4,000 lived
 * through V8's young-generation collections in both, which copied them again and again
 * (promoted ~400 MB and spent ~1 s of collector pauses importing 100,000; ~20 MB and ~0.4 s in
 * batches of 250). The writes group them into larger transactions (importTransactions.ts).
 */
const IMPORT_READ_BATCH = 250;
/** Batches the reader thread may have sent and not yet been taken: a transaction's worth. */
const BATCHES_AHEAD = 16;

/** The reader thread's script: the bundle next to this one, or the source when run from source (tests). */
const WORKER_FILE = __filename.endsWith('.ts') ? path.join(__dirname, 'importWorker.ts') : path.join(__dirname, 'import-worker.js');

function startWorker(file: string, workerData: ImportWorkerData): Worker {
  if (!file.endsWith('.ts')) return new Worker(file, { workerData });
  // Run from source (tests): a thread does not inherit the test run's TypeScript loader.
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(file)});`, { eval: true, workerData });
}

export interface ImportReaderOptions {
  /** Memories a batch holds (IMPORT_READ_BATCH unless a test says otherwise). */
  readonly batchSize?: number;
  /** The user's redaction patterns. */
  readonly patterns: readonly RegExp[];
  /** The project's root: memories tied to places outside it are rejected lines. */
  readonly projectRoot: string;
  /** Another reader thread script, for tests. */
  readonly workerFile?: string;
}

/**
 * The batches of the export open at `fd`, read, parsed and redacted on a second thread while the
 * caller writes the batch before: the two take about as long, and a machine has two cores. A batch
 * arrives whole or not at all; a failure of the thread is thrown after the batches it sent.
 */
export async function* readImportBatches(fd: number, options: ImportReaderOptions): AsyncGenerator<ImportBatch> {
  const credits = newCredits(BATCHES_AHEAD);
  const workerData: ImportWorkerData = { fd, batchSize: options.batchSize ?? IMPORT_READ_BATCH, projectRoot: options.projectRoot, patterns: options.patterns.map(({ source, flags }) => ({ source, flags })), credits };
  const worker = startWorker(options.workerFile ?? WORKER_FILE, workerData);
  const received: ImportWorkerMessage[] = [];
  let failure: Error | undefined;
  let exited = false;
  let wake: (() => void) | undefined;
  worker.on('message', (message: ImportWorkerMessage) => {
    received.push(message);
    wake?.();
  });
  worker.on('error', (error) => {
    failure = error;
    wake?.();
  });
  worker.on('exit', () => {
    exited = true;
    wake?.();
  });
  const view = new Int32Array(credits);
  try {
    for (;;) {
      const message = received.shift();
      if (message) {
        if ('done' in message) return;
        grantCredit(view);
        yield unpackBatch(message.batch);
        continue;
      }
      // Not on 'error' itself: messages the thread sent before it failed may still be on their
      // way; Node delivers them all before 'exit'.
      if (exited) throw failure ?? new Error('the reader thread stopped before the end of the file');
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    stopReader(view);
    await worker.terminate();
  }
}
