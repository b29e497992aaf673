// An import reader thread that sends one batch and then fails, as a crash half-way through would.
import { parentPort, workerData } from 'node:worker_threads';
import { Redactor } from '../../../server/src/secrets/redact';
import { readExportLines } from '../../../server/src/cli/import/exportLines';
import { importBatches } from '../../../server/src/cli/import/importBatches';
import { waitForCredit, type ImportWorkerData } from '../../../server/src/cli/import/importProtocol';
import { packBatch } from '../../../server/src/cli/import/packedBatch';

const data = workerData as ImportWorkerData;
const batches = importBatches(readExportLines(data.fd), new Redactor(), data.batchSize);
const first = batches.next();
if (!first.done && waitForCredit(new Int32Array(data.credits))) parentPort!.postMessage({ batch: packBatch(first.value) });
// Half of the next batch is parsed, never sent.
batches.next();
throw new Error('reader crashed');
