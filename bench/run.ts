import { benchCapture } from './capture.bench';
import { benchCodeHistory } from './codeHistory.bench';
import { benchCodeRecall, benchCodeRecallAtScale } from './codeRecall.bench';
import { benchExtraction } from './extraction.bench';
import { benchHistory } from './history.bench';
import { benchLocomo } from './locomo.bench';
import { benchRecall } from './recall.bench';
import { benchRedaction } from './redaction.bench';
import { benchScale } from './scale.bench';
import { benchTeamHub } from './teamHub.bench';
import { benchTranscripts } from './transcripts.bench';

// `npm run bench`: prints the numbers the issues set targets for. Timing is measured here, never
// asserted in unit tests.
const SECTIONS: Record<string, () => Promise<void> | void> = {
  capture: benchCapture,
  transcripts: benchTranscripts,
  extraction: benchExtraction,
  redaction: benchRedaction,
  recall: benchRecall,
  locomo: benchLocomo,
  'code-recall': benchCodeRecall,
  'code-recall-at-scale': benchCodeRecallAtScale,
  history: benchHistory,
  'code-history': benchCodeHistory,
  scale: benchScale,
  team: benchTeamHub,
};

/** `npm run bench` runs every section; `npm run bench -- recall capture` only those named. */
async function main(): Promise<void> {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !(name in SECTIONS));
  if (unknown.length) {
    console.error(`Unknown bench section(s): ${unknown.join(', ')}. Sections: ${Object.keys(SECTIONS).join(', ')}`);
    process.exit(2);
  }
  console.log(`Engram benchmarks — Node ${process.version}, ${new Date().toISOString()}`);
  for (const [name, run] of Object.entries(SECTIONS)) if (!asked.length || asked.includes(name)) await run();
}

void main();
