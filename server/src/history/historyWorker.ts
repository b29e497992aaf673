/**
 * The memory server's history import thread (bundled as dist/history-worker.js): the import
 * reads, diffs and parses for seconds to minutes, and here none of it delays a hover. It has its
 * own connection to the project's database and its own tree-sitter, so it shares neither the
 * server's caches nor its parse trees of open files.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openProject } from '../project';
import { importHistory } from './importHistory';
import type { HistoryWorkerData, HistoryWorkerMessage } from './historyThreadProtocol';

const data = workerData as HistoryWorkerData;
const cancel = new Int32Array(data.cancel);
const post = (message: HistoryWorkerMessage) => parentPort!.postMessage(message);

async function run(): Promise<void> {
  const project = openProject(data.projectFolder);
  try {
    const report = await importHistory(project, data.scope, {
      onStart: (commits) => post({ type: 'start', commits }),
      onProgress: (progress) => post({ type: 'progress', progress }),
      onProblem: (message) => post({ type: 'problem', message }),
      isCancelled: () => Atomics.load(cancel, 0) === 1,
    });
    post({ type: 'done', report });
  } finally {
    project.close();
  }
}

run().catch((error: unknown) => post({ type: 'failed', message: (error as Error).message ?? String(error) }));
