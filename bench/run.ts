import { benchCapture } from './capture.bench';
import { benchCodeRecall } from './codeRecall.bench';
import { benchExtraction } from './extraction.bench';
import { benchLocomo } from './locomo.bench';
import { benchRecall } from './recall.bench';
import { benchTranscripts } from './transcripts.bench';

// `npm run bench`: prints the numbers the issues set targets for. Timing is measured here, never
// asserted in unit tests.
async function main(): Promise<void> {
  console.log(`Engram benchmarks — Node ${process.version}, ${new Date().toISOString()}`);
  await benchCapture();
  await benchTranscripts();
  await benchExtraction();
  await benchRecall();
  await benchLocomo();
  await benchCodeRecall();
}

void main();
