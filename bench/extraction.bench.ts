import { evaluateSequences, evaluateTexts, type Score } from './extraction/evaluate';

function line(name: string, score: Score): string {
  return `${name.padEnd(40)} precision ${score.precision.toFixed(3)}   recall ${score.recall.toFixed(3)}   (tp ${score.truePositives}, fp ${score.falsePositives}, fn ${score.falseNegatives})`;
}

/** Quality, not speed: printed with the benchmarks so docs/extraction.md can quote one run. */
export async function benchExtraction(): Promise<void> {
  const texts = evaluateTexts();
  const gotchas = await evaluateSequences();
  console.log(`\nTranscript extractors on the labeled set (${texts.items} texts, ${gotchas.items} tool-call sequences)`);
  console.log(line('constraint candidates (user prompts)', texts.constraint));
  console.log(line('decisions (prompts and assistant text)', texts.decision));
  console.log(line('gotchas (failure → fix)', gotchas));
}
