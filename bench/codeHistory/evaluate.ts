import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importHistory } from '../../server/src/history/importHistory';
import { openProject, type Project } from '../../server/src/project';
import { answerRecall } from '../../server/src/recall/answerRecall';
import { fileStem, MessageBm25Baseline, RecencyBaseline } from './baselines';
import { historyCases, type HistoryCase, type HistorySplit } from './cases';
import { commitOfSourceRef, distinctInOrder, meanScore, scoreRanking, type CaseScore, type MeanScore } from './metrics';

export const REPOS_FOLDER = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'data', 'repos');
/** Results read per query: what `engram recall` shows by default. */
export const K = 10;
/** Cases asked per repository at most (evenly spaced over the later commits): keeps a run to about a minute a repository. */
export const MAX_CASES = 600;

export type QueryMode = 'cursor' | 'message';
export const SYSTEMS = ['engram', 'recency', 'bm25'] as const;
export type System = (typeof SYSTEMS)[number];

/** One case's rankings (distinct commits, best first), for diagnosis. */
export interface CaseOutcome {
  readonly case: HistoryCase;
  readonly symbol: string | null;
  readonly ranked: Readonly<Record<QueryMode, Readonly<Record<System, readonly string[]>>>>;
}

export interface RepoResult {
  readonly repo: string;
  readonly split: string;
  readonly firstParent: number;
  readonly beforeSplit: number;
  readonly imported: number;
  readonly memories: number;
  readonly laterCommits: number;
  readonly allCases: number;
  readonly scores: Readonly<Record<QueryMode, Readonly<Record<System, MeanScore>>>>;
  readonly outcomes: readonly CaseOutcome[];
  readonly seconds: { readonly cases: number; readonly import: number; readonly queries: number };
}

function cloneBundle(repo: string, into: string): string {
  const root = path.join(into, repo);
  execFileSync('git', ['clone', '--quiet', path.join(REPOS_FOLDER, `${repo}.bundle`), root], { stdio: 'ignore' });
  return root;
}

async function engramRanking(project: Project, c: HistoryCase, mode: QueryMode): Promise<{ ranked: string[]; symbol: string | null }> {
  // (a) as the editor and `engram recall --file F --line N` ask: the symbol at the cursor comes from tree-sitter on the file on disk.
  const query = mode === 'cursor' ? { file: c.file, line: c.cursorLine - 1, limit: K } : { file: c.file, query: c.message, limit: K };
  const answer = await answerRecall(project, query);
  return { ranked: distinctInOrder(answer.results.map((r) => commitOfSourceRef(r.memory.sourceRef))), symbol: answer.symbol };
}

/** Every case asked of Engram (the project holds the imported history) and of the two baselines. */
export async function askCases(project: Project, root: string, history: HistorySplit, bm25: MessageBm25Baseline): Promise<CaseOutcome[]> {
  const recency = new RecencyBaseline(root, history.split, K);
  const outcomes: CaseOutcome[] = [];
  for (const c of history.cases) {
    const cursor = await engramRanking(project, c, 'cursor');
    const message = await engramRanking(project, c, 'message');
    const stem = fileStem(c.file);
    outcomes.push({
      case: c,
      symbol: cursor.symbol,
      ranked: {
        cursor: { engram: cursor.ranked, recency: recency.rank(c.file), bm25: bm25.rank(`${stem} ${c.cursorText}`, K) },
        message: { engram: message.ranked, recency: recency.rank(c.file), bm25: bm25.rank(`${stem} ${c.message}`, K) },
      },
    });
  }
  return outcomes;
}

/** Mean R@k and MRR of each system in each query mode. */
export function scoresOf(outcomes: readonly CaseOutcome[]): Record<QueryMode, Record<System, MeanScore>> {
  const scoreOf = (mode: QueryMode, system: System) => meanScore(outcomes.map((o): CaseScore => scoreRanking(o.ranked[mode][system], new Set(o.case.relevant), K)));
  const modeScores = (mode: QueryMode) => Object.fromEntries(SYSTEMS.map((s) => [s, scoreOf(mode, s)])) as Record<System, MeanScore>;
  return { cursor: modeScores('cursor'), message: modeScores('message') };
}

/**
 * One repository of the code-history benchmark: a clone checked out at the split, its history
 * imported as `engram ingest --git` does, and every case asked of Engram and the two baselines.
 */
export async function evaluateRepo(repo: string, maxCases = MAX_CASES): Promise<RepoResult> {
  const work = mkdtempSync(path.join(tmpdir(), 'engram-code-history-'));
  try {
    const root = cloneBundle(repo, work);
    let t = performance.now();
    const history = historyCases(root, maxCases);
    const casesSeconds = (performance.now() - t) / 1000;
    // The clone is the bench's own: checking out the split makes it HEAD, so the import stops there.
    execFileSync('git', ['checkout', '--quiet', '--detach', history.split], { cwd: root, stdio: 'ignore' });
    const project = openProject(root, { ...process.env, ENGRAM_HOME: path.join(work, 'home') });
    const bm25 = new MessageBm25Baseline(history.imported);
    try {
      t = performance.now();
      const report = await importHistory(project);
      const importSeconds = (performance.now() - t) / 1000;
      t = performance.now();
      const outcomes = await askCases(project, root, history, bm25);
      const queriesSeconds = (performance.now() - t) / 1000;
      return {
        repo,
        split: history.split,
        firstParent: history.firstParent,
        beforeSplit: history.beforeSplit,
        imported: report.done,
        memories: report.memories,
        laterCommits: history.laterCommits,
        allCases: history.allCases,
        scores: scoresOf(outcomes),
        outcomes,
        seconds: { cases: casesSeconds, import: importSeconds, queries: queriesSeconds },
      };
    } finally {
      bm25.close();
      project.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
