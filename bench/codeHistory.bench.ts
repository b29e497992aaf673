import { evaluateRepo, K, SYSTEMS, type QueryMode, type RepoResult } from './codeHistory/evaluate';

const MODES: readonly { mode: QueryMode; label: string }[] = [
  { mode: 'cursor', label: '(a) cursor: F + a line C changes' },
  { mode: 'message', label: "(b) F + C's message" },
];

function printRepo(r: RepoResult): void {
  console.log(
    `${r.repo}: split ${r.split.slice(0, 10)} (${r.beforeSplit} of ${r.firstParent} first-parent commits); ${r.imported} commits imported → ${r.memories} memories; ` +
      `${r.laterCommits} later commits → ${r.allCases} cases, ${r.outcomes.length} asked`,
  );
  console.log(`  ${'query'.padEnd(36)} ${SYSTEMS.map((s) => `${s} R@${K} / MRR`.padEnd(22)).join('')}`);
  for (const { mode, label } of MODES) {
    const cells = SYSTEMS.map((s) => `${r.scores[mode][s].recallAtK.toFixed(3)} / ${r.scores[mode][s].mrr.toFixed(3)}`.padEnd(22));
    console.log(`  ${label.padEnd(36)} ${cells.join('')}`);
  }
  console.log(`  time: cases ${r.seconds.cases.toFixed(1)} s, import ${r.seconds.import.toFixed(1)} s, queries ${r.seconds.queries.toFixed(1)} s`);
}

/** `npm run bench -- code-history`: recall of the commits behind the code a later commit changes (issue 22, docs/code-recall.md). */
export async function benchCodeHistory(): Promise<void> {
  console.log(`\n== Code history (issue 22): the commits git blame names for the lines a later commit changes, R@${K} / MRR ==`);
  for (const repo of ['express', 'requests']) printRepo(await evaluateRepo(repo));
}
