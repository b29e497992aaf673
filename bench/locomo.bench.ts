import { performance } from 'node:perf_hooks';
import { locomoAvailable, LOCOMO_DIR } from './locomo/data';
import { evaluateMany, engramRecall, type LocomoResult } from './locomo/evaluate';
import { PROPOSAL, runStudy } from './locomo/experiments';
import { variantRetriever } from './locomo/variants';

/** SOURCES.md: plain FTS5 (porter), question words OR-ed minus stop words, bm25, same 760 questions. */
const REFERENCE = { recallAt5: 0.528, recallAt10: 0.614, hitAt10: 0.68 };

function line(name: string, r: { recallAt5: number; recallAt10: number; hitAt10: number }, note = ''): string {
  return `${name.padEnd(58)} R@5 ${r.recallAt5.toFixed(3)}   R@10 ${r.recallAt10.toFixed(3)}   hit@10 ${r.hitAt10.toFixed(3)}${note}`;
}

function categories(r: LocomoResult): string {
  return Object.entries(r.byCategory)
    .map(([name, c]) => `${name} ${c.recallAt10.toFixed(3)} (${c.questions})`)
    .join(', ');
}

/**
 * Quality, not speed: recall on LoCoMo's first five conversations (docs/recall-quality.md), each
 * turn a memory, each question a recall() query. The data stays outside the repository
 * (CC BY-NC 4.0, evaluation only); without it this prints why and returns.
 */
export async function benchLocomo(): Promise<void> {
  if (!locomoAvailable()) {
    console.log(`\nRecall on LoCoMo: skipped, no data in ${LOCOMO_DIR} (see docs/recall-quality.md)`);
    return;
  }
  const start = performance.now();
  const retrievers = { recall: engramRecall, proposal: variantRetriever(PROPOSAL) };
  const dated = await evaluateMany({ clock: 'session', retrievers });
  const flat = await evaluateMany({ clock: 'same', retrievers });
  const r = dated.recall!;
  console.log(`\nRecall on LoCoMo (5 conversations, ${r.questions} questions of categories 1–4, top 10 of recall(), ${((performance.now() - start) / 1000).toFixed(1)} s)`);
  console.log(line('reference: SQLite FTS5 + bm25 (SOURCES.md)', REFERENCE));
  console.log(line('recall(), memories dated by session', r, `   (${(r.ms / 1000).toFixed(1)} s)`));
  console.log(`${''.padEnd(58)} R@10 by category: ${categories(r)}`);
  console.log(line('recall(), all memories of one instant (text only)', flat.recall!));
  console.log(line('prototype of the proposal (bench/locomo/proposal.ts)', dated.proposal!));
}

/** The variant table of docs/recall-quality.md (about a minute); not part of `npm run bench`. */
export async function benchLocomoStudy(): Promise<void> {
  if (!locomoAvailable()) return benchLocomo();
  const rows = await runStudy();
  console.log(`\nRecall on LoCoMo: variants (memories dated by session; then R@10 with one clock for all, and questions whose R@10 is better/worse than with recall v2)`);
  let group = '';
  for (const { row, session, same, better, worse } of rows) {
    if (row.group !== group) console.log(`-- ${(group = row.group)}`);
    console.log(`${line(row.name, session)}   same-clock R@10 ${same.recallAt10.toFixed(3)}   +${better}/−${worse}`);
  }
}
