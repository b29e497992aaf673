import { buildCodeRecallProject, evaluateCodeRecall, scoreCodeRecall, type TypeScore } from './codeRecall/evaluate';

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`.padStart(6);
}

function row(name: string, s: TypeScore): string {
  return `${name.padEnd(14)} ${String(s.queries).padStart(3)}   R@5 ${percent(s.recallAt5)}   R@10 ${percent(s.recallAt10)}   MRR ${s.mrr.toFixed(3)}   nDCG@5 ${s.ndcgAt5.toFixed(3)}`;
}

/**
 * Code-tied recall quality (docs/code-recall.md): judged memories for a file, cursor, prompt or
 * set of open files in the demo workspace, asked through the real answerRecall. Prints the
 * numbers by query type and every `must` memory that missed the top 5.
 */
export async function benchCodeRecall(): Promise<void> {
  const r = await evaluateCodeRecall();
  console.log(`\nCode-tied recall (demo workspace: ${r.memories} memories, ${r.queries} judged queries, ${r.ms.toFixed(0)} ms)`);
  console.log(`${'query type'.padEnd(14)} ${'n'.padStart(3)}`);
  for (const [type, score] of Object.entries(r.byType)) console.log(row(type, score));
  console.log(row('all', r));
  console.log(`must memories outside the top 5: ${r.misses.length}`);
  for (const miss of r.misses) console.log(`  ${miss}`);
}

const DISTRACTORS = 100_000;

/**
 * The same judged queries with 100,000 generated memories around the judged ones (a store at the
 * capacity the recall targets are set for): what searching only a query's selective words
 * (docs/recall.md) keeps of ranking every word with bm25.
 */
export async function benchCodeRecallAtScale(): Promise<void> {
  const started = performance.now();
  const built = buildCodeRecallProject(DISTRACTORS);
  try {
    console.log(`\nCode-tied recall among ${DISTRACTORS.toLocaleString('en')} generated memories (built in ${((performance.now() - started) / 1000).toFixed(0)} s)`);
    const selective = await scoreCodeRecall(built);
    const exhaustive = await scoreCodeRecall(built, { rankedPostings: Infinity });
    console.log(`${'ranking'.padEnd(14)} ${'n'.padStart(3)}`);
    console.log(`${row('selective', selective)}   (${selective.ms.toFixed(0)} ms)`);
    console.log(`${row('every word', exhaustive)}   (${exhaustive.ms.toFixed(0)} ms)`);
    for (const [type, score] of Object.entries(selective.byType)) console.log(`${row(`  ${type}`, score)}   every word: R@5 ${percent(exhaustive.byType[type]!.recallAt5)}`);
  } finally {
    built.close();
  }
}
