/**
 * `engram import`'s reader thread (bundled as dist/import-worker.js): reads, parses, validates
 * (places inside the project, links followed, included) and redacts the export's lines while the
 * main thread writes the batch before (importReader.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Redactor } from '../../secrets/redact';
import { ProjectPathCheck } from '../../paths/insideProject';
import { readExportLines } from './exportLines';
import { importBatches, placeCheckOf } from './importBatches';
import { waitForCredit, type ImportWorkerData } from './importProtocol';
import { packBatch } from './packedBatch';

const data = workerData as ImportWorkerData;
const redactor = new Redactor(data.patterns.map((p) => new RegExp(p.source, p.flags)));
const credits = new Int32Array(data.credits);
const places = placeCheckOf(new ProjectPathCheck(data.projectRoot));
for (const batch of importBatches(readExportLines(data.fd), redactor, data.batchSize, places)) {
  if (!waitForCredit(credits)) break;
  parentPort!.postMessage({ batch: packBatch(batch) });
}
parentPort!.postMessage({ done: true });
