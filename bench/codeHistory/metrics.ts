/** The commit a memory came from: sourceRef `git:<sha>:<path>` or `git:<sha>` (a bulk summary); null for any other memory. */
export function commitOfSourceRef(sourceRef: string | null | undefined): string | null {
  const match = /^git:([0-9a-f]{40})(?::|$)/.exec(sourceRef ?? '');
  return match ? match[1]! : null;
}

/** Commits in the order first named: a commit named again (another file's memory) keeps its best rank. */
export function distinctInOrder(commits: readonly (string | null)[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of commits) {
    if (c === null || seen.has(c)) continue;
    seen.add(c);
    out.push(c);
  }
  return out;
}

export interface CaseScore {
  /** Share of the right commits among the first k. */
  readonly recallAtK: number;
  /** 1 / the rank of the first right commit; 0 when none is in the list. */
  readonly reciprocalRank: number;
}

/** R@k and the reciprocal rank of one ranked list of distinct commits against the right ones. */
export function scoreRanking(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): CaseScore {
  if (!relevant.size) throw new Error('a case without a right answer cannot be scored');
  let found = 0;
  let reciprocalRank = 0;
  ranked.slice(0, k).forEach((sha, i) => {
    if (!relevant.has(sha)) return;
    found++;
    if (!reciprocalRank) reciprocalRank = 1 / (i + 1);
  });
  return { recallAtK: found / relevant.size, reciprocalRank };
}

export interface MeanScore {
  readonly cases: number;
  readonly recallAtK: number;
  readonly mrr: number;
}

export function meanScore(scores: readonly CaseScore[]): MeanScore {
  const mean = (f: (s: CaseScore) => number) => (scores.length ? scores.reduce((sum, s) => sum + f(s), 0) / scores.length : 0);
  return { cases: scores.length, recallAtK: mean((s) => s.recallAtK), mrr: mean((s) => s.reciprocalRank) };
}
