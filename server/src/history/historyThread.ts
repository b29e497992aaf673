import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { HistoryProgress, HistoryReport, HistoryScope } from './importHistory';
import type { HistoryWorkerData, HistoryWorkerMessage } from './historyThreadProtocol';

/** The thread's script: the bundle next to this one, or the source when run from source (tests). */
const WORKER_FILE = __filename.endsWith('.ts') ? path.join(__dirname, 'historyWorker.ts') : path.join(__dirname, 'history-worker.js');

function startWorker(file: string, workerData: HistoryWorkerData): Worker {
  if (!file.endsWith('.ts')) return new Worker(file, { workerData });
  // Run from source (tests): a thread does not inherit the test run's TypeScript loader.
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(file)});`, { eval: true, workerData });
}

export interface HistoryThreadEvents {
  readonly onStart: (commits: number) => void;
  readonly onProgress: (progress: HistoryProgress) => void;
  readonly onProblem: (message: string) => void;
}

/** A history import running on its own thread (historyWorker.ts). */
export interface HistoryThread {
  /** Its report once it ends; rejected when it failed. */
  readonly done: Promise<HistoryReport>;
  /** Stops it after the commit it is reading; what it read is stored, `done` resolves as cancelled. */
  cancel(): void;
  /** Ends the thread at once (the server shuts down): the commits stored so far stay, whole. */
  terminate(): Promise<void>;
}

export function startHistoryThread(projectFolder: string, scope: HistoryScope, events: HistoryThreadEvents): HistoryThread {
  const cancel = new SharedArrayBuffer(4);
  const worker = startWorker(WORKER_FILE, { projectFolder, scope, cancel });
  const done = new Promise<HistoryReport>((resolve, reject) => {
    worker.on('message', (message: HistoryWorkerMessage) => {
      switch (message.type) {
        case 'start':
          return events.onStart(message.commits);
        case 'progress':
          return events.onProgress(message.progress);
        case 'problem':
          return events.onProblem(message.message);
        case 'done':
          return resolve(message.report);
        case 'failed':
          return reject(new Error(message.message));
      }
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`the history import thread stopped (exit ${code}) before it was done`)));
  });
  return {
    done,
    cancel: () => Atomics.store(new Int32Array(cancel), 0, 1),
    terminate: async () => {
      await worker.terminate();
    },
  };
}
