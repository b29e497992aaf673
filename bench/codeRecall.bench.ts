import { evaluateCodeRecall, type TypeScore } from './codeRecall/evaluate';

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
