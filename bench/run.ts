import { benchCapture } from './capture.bench';

// `npm run bench`: prints the numbers the issues set targets for. Timing is measured here, never
// asserted in unit tests.
async function main(): Promise<void> {
  console.log(`Engram benchmarks — Node ${process.version}, ${new Date().toISOString()}`);
  await benchCapture();
}

void main();
