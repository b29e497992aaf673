import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openProject } from '../../server/src/project';
import { answerRecall, type RecallTuning } from '../../server/src/recall/answerRecall';
import type { Project } from '../../server/src/project';
import { generateMemoryFixture } from '../memoryFixtures';
import type { ScorePart } from '../../server/src/recall/recall';
import { codeRecallMemories, readDemoTexts, type CodeMemory } from './memories';
import { CODE_QUERIES, type CodeQuery, type QueryType } from './queries';

/**
 * The code-tied recall set (docs/code-recall.md): the memories of memories.ts are stored in a
 * fresh project holding a copy of demo/, every query of queries.ts is asked through the real
 * `answerRecall` (the symbol at the cursor comes from tree-sitter, as in the editor), and the
 * ranking is compared with the judged `must` and `nice` memories.
 *
 * - Recall@k: share of a query's `must` memories in the top k, averaged over queries.
 * - MRR: 1 / rank of the first `must` memory (0 when none is returned), averaged.
 * - nDCG@5: graded (must 2, nice 1, anything else 0), against the ideal order of the judged memories.
 *
 * Memories are stored at `now − age`, and recall uses the real clock, so recency is the same on every run.
 */

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const DAY_MS = 86_400_000;
/** How deep the ranking is read: enough to see where a missed memory ended up. */
const DEPTH = 100;
const DISTRACTOR_FILES = 320;
const DISTRACTOR_SEED = 20_240_601;

export interface TypeScore {
  readonly queries: number;
  readonly recallAt5: number;
  readonly recallAt10: number;
  readonly mrr: number;
  readonly ndcgAt5: number;
}

export interface RankedKey {
  readonly key: string;
  readonly rank: number;
  readonly score: number;
  readonly explanation: readonly ScorePart[];
}

export interface QueryOutcome {
  readonly id: string;
  readonly type: QueryType;
  /** The symbol answerRecall derived from file + line (null outside a declaration or without a line). */
  readonly symbol: string | null;
  readonly recallAt5: number;
  readonly recallAt10: number;
  readonly reciprocalRank: number;
  readonly ndcgAt5: number;
  /** The top 10, best first. */
  readonly top: readonly RankedKey[];
  /** `must` memories outside the top 5, with where they ended up (rank 0: not returned at all). */
  readonly missed: readonly RankedKey[];
}

export interface CodeRecallResult {
  readonly memories: number;
  readonly queries: number;
  readonly recallAt5: number;
  readonly recallAt10: number;
  readonly mrr: number;
  readonly ndcgAt5: number;
  readonly byType: Record<string, TypeScore>;
  /** One line per `must` memory outside the top 5: query, memory, its rank. */
  readonly misses: string[];
  readonly perQuery: readonly QueryOutcome[];
  readonly ms: number;
}

function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

function dcg(gains: readonly number[]): number {
  return gains.reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
}

function gainOf(query: CodeQuery, key: string): number {
  return query.must.includes(key) ? 2 : query.nice?.includes(key) ? 1 : 0;
}

/** Fails loudly when a query names a memory the set does not have (a typo would read as a miss). */
function checkKeys(memories: readonly CodeMemory[], queries: readonly CodeQuery[]): void {
  const keys = new Set(memories.map((m) => m.key));
  if (keys.size !== memories.length) throw new Error('code recall set: duplicate memory keys');
  for (const q of queries) {
    for (const key of [...q.must, ...(q.nice ?? [])]) if (!keys.has(key)) throw new Error(`code recall set: query ${q.id} names unknown memory ${key}`);
    if (!q.must.length) throw new Error(`code recall set: query ${q.id} has no must memory`);
  }
}

function summarize(outcomes: readonly QueryOutcome[]): TypeScore {
  return {
    queries: outcomes.length,
    recallAt5: mean(outcomes.map((o) => o.recallAt5)),
    recallAt10: mean(outcomes.map((o) => o.recallAt10)),
    mrr: mean(outcomes.map((o) => o.reciprocalRank)),
    ndcgAt5: mean(outcomes.map((o) => o.ndcgAt5)),
  };
}

function where(query: CodeQuery, symbol: string | null): string {
  const place = query.file ? `${query.file}${query.line === undefined ? '' : `:${query.line + 1}`}${symbol ? ` (${symbol})` : ''}` : '';
  const text = query.query ? `"${query.query}"` : '';
  const open = query.openFiles?.length ? `open: ${query.openFiles.join(', ')}` : '';
  return [place, text, open].filter(Boolean).join(' ');
}

/** The demo copy with the judged memories (and, when asked, generated distractors), ready to be asked. */
export interface CodeRecallProject {
  readonly project: Project;
  readonly memories: number;
  close(): void;
}

/**
 * A fresh project holding a copy of demo/ and the judged memories of memories.ts; with
 * `distractors`, that many generated memories (bench/memoryFixtures.ts) around them, and the
 * term counts a server or an import would keep for a store that size.
 */
export function buildCodeRecallProject(distractors = 0): CodeRecallProject {
  const work = mkdtempSync(path.join(tmpdir(), 'engram-code-recall-'));
  const root = path.join(work, 'shop');
  // The copy is its own project (its own .git), whatever else may be in demo/ at the time.
  cpSync(path.join(REPO_ROOT, 'demo'), root, { recursive: true, filter: (source) => path.basename(source) !== '.git' });
  mkdirSync(path.join(root, '.git'));
  const project = openProject(root, { ...process.env, ENGRAM_HOME: path.join(work, 'home') });
  const close = () => {
    project.close();
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const memories = codeRecallMemories(readDemoTexts(root));
    checkKeys(memories, CODE_QUERIES);
    const now = Date.now();
    for (const { key, ageDays, memory } of memories) project.store.add({ ...memory, sourceRef: `code:${key}` }, Math.round(now - ageDays * DAY_MS));
    if (distractors) {
      const fixture = generateMemoryFixture({ memories: distractors, files: DISTRACTOR_FILES, seed: DISTRACTOR_SEED, now });
      project.transaction(() => {
        for (const memory of fixture.memories) project.store.import(memory);
      });
      project.store.termStats.recount();
    }
    return { project, memories: memories.length, close };
  } catch (error) {
    close();
    throw error;
  }
}

/** Every judged query asked through the real answerRecall, compared with its judged memories. */
export async function scoreCodeRecall(built: CodeRecallProject, tuning: RecallTuning = {}): Promise<CodeRecallResult> {
  const started = performance.now();
  const { project } = built;
  const outcomes: QueryOutcome[] = [];
  const misses: string[] = [];
  for (const q of CODE_QUERIES) {
    const answer = await answerRecall(project, { query: q.query, file: q.file, line: q.line, openFiles: q.openFiles, limit: DEPTH }, undefined, tuning);
    const ranked: RankedKey[] = answer.results.flatMap((r, i) =>
      r.memory.sourceRef?.startsWith('code:') ? [{ key: r.memory.sourceRef.slice(5), rank: i + 1, score: r.score, explanation: r.explanation }] : [],
    );
    const rankOf = new Map(ranked.map((r) => [r.key, r]));
    const within = (k: number) => q.must.filter((key) => (rankOf.get(key)?.rank ?? Infinity) <= k).length / q.must.length;
    const firstMust = Math.min(...q.must.map((key) => rankOf.get(key)?.rank ?? Infinity));
    const ideal = [...q.must.map(() => 2), ...(q.nice ?? []).map(() => 1)].slice(0, 5);
    const missed = q.must
      .filter((key) => (rankOf.get(key)?.rank ?? Infinity) > 5)
      .map((key) => rankOf.get(key) ?? { key, rank: 0, score: 0, explanation: [] });
    const outcome: QueryOutcome = {
      id: q.id,
      type: q.type,
      symbol: answer.symbol,
      recallAt5: within(5),
      recallAt10: within(10),
      reciprocalRank: Number.isFinite(firstMust) ? 1 / firstMust : 0,
      ndcgAt5: dcg(ranked.slice(0, 5).map((r) => gainOf(q, r.key))) / dcg(ideal),
      top: ranked.slice(0, 10),
      missed,
    };
    outcomes.push(outcome);
    for (const m of missed) misses.push(`${q.id} [${q.type}] ${where(q, answer.symbol)}: ${m.key} ${m.rank ? `ranked ${m.rank}` : 'not returned'}`);
  }

  const types = [...new Set(CODE_QUERIES.map((q) => q.type))];
  const all = summarize(outcomes);
  return {
    memories: built.memories,
    queries: outcomes.length,
    recallAt5: all.recallAt5,
    recallAt10: all.recallAt10,
    mrr: all.mrr,
    ndcgAt5: all.ndcgAt5,
    byType: Object.fromEntries(types.map((t) => [t, summarize(outcomes.filter((o) => o.type === t))])),
    misses,
    perQuery: outcomes,
    ms: performance.now() - started,
  };
}

export async function evaluateCodeRecall(): Promise<CodeRecallResult> {
  const built = buildCodeRecallProject();
  try {
    return await scoreCodeRecall(built);
  } finally {
    built.close();
  }
}
