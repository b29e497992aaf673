import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openProject, type Project } from '../../server/src/project';
import { findNativeBinding } from '../../server/src/store/nativeBinding';
import { recall } from '../../server/src/recall/recall';
import type { Memory } from '../../server/src/memory/types';
import { CATEGORY_NAMES, loadLocomo, type LocomoConversation, type LocomoTurn } from './data';

/**
 * Recall quality on LoCoMo (see docs/recall-quality.md): every turn of a conversation is stored
 * as a memory through the real MemoryStore, every question of categories 1–4 with evidence is
 * asked through the real `recall()`, and Recall@k is the share of the question's evidence turns
 * in the top k, averaged over questions. Deterministic: all timestamps come from the data.
 */

const TITLE_MAX = 120;
const DAY_MS = 86_400_000;

export interface CategoryScore {
  readonly questions: number;
  readonly recallAt5: number;
  readonly recallAt10: number;
}

export interface LocomoResult {
  readonly questions: number;
  readonly recallAt5: number;
  readonly recallAt10: number;
  /** Share of questions with at least one evidence turn in the top 10. */
  readonly hitAt10: number;
  readonly byCategory: Record<string, CategoryScore>;
  /** Recall@k for every k asked for (5 and 10 always included). */
  readonly recallAt: Record<number, number>;
  /** Recall@10 of each question, in data order: for paired comparisons of two retrievers. */
  readonly perQuestion: readonly number[];
  /** Wall time of the whole evaluation: storing every turn and answering every question. */
  readonly ms: number;
}

export interface LocomoStoreOptions {
  /**
   * 'session' (default): a turn's memory is created at its session's date and questions are
   * asked a day after the last session, as a user would; 'same': every memory and every question
   * at one instant, so recency cannot affect the ranking.
   */
  readonly clock?: 'session' | 'same';
  /** Appends the session date to every memory's body (indexed), e.g. `(said 8 May 2023)`. */
  readonly dateInBody?: boolean;
}

/** One conversation stored in a fresh Engram project. */
export interface LocomoProject {
  readonly conversation: LocomoConversation;
  readonly project: Project;
  /** When questions are asked (the `now` given to recall). */
  readonly now: number;
  /** The dia_id a recalled memory stands for, or null for anything else. */
  diaIdOf(memory: Memory): string | null;
  /** A read-only connection to the project's database, for prototypes that query it directly. */
  readOnly(): Database.Database;
}

/** Ranks the dia_ids of a conversation's turns for a question, best first. */
export type LocomoRetriever = (context: LocomoProject, question: string) => readonly string[];

export function memoryText(turn: LocomoTurn, options: LocomoStoreOptions = {}): { title: string; body: string } {
  let body = `${turn.speaker}: ${turn.text}`;
  if (turn.caption) body += ` [${turn.caption}]`;
  if (options.dateInBody) body += ` (said ${turn.sessionDate.replace(/^.* on /, '').replace(',', '')})`;
  // As `engram remember TEXT` does it: the first line, shortened, is the title; the text is the body.
  const firstLine = `${turn.speaker}: ${turn.text}`.split('\n')[0]!.trim();
  const title = firstLine.length > TITLE_MAX ? `${firstLine.slice(0, TITLE_MAX - 1)}…` : firstLine;
  return { title, body };
}

function storeConversation(work: string, conversation: LocomoConversation, options: LocomoStoreOptions): LocomoProject & { close(): void } {
  const root = path.join(work, conversation.id);
  mkdirSync(path.join(root, '.git'), { recursive: true });
  const project = openProject(root, { ...process.env, ENGRAM_HOME: path.join(work, 'home') });
  const same = options.clock === 'same';
  const last = Math.max(...conversation.turns.map((t) => t.time));
  const now = last + DAY_MS;
  for (const turn of conversation.turns) {
    project.store.add(
      {
        kind: 'fact',
        source: 'user',
        ...memoryText(turn, options),
        sourceRef: `locomo:${conversation.id}:${turn.diaId}`,
        sessionId: `locomo:${conversation.id}:session_${turn.session}`,
        meta: { speaker: turn.speaker, session: turn.session, sessionDate: turn.sessionDate },
      },
      same ? now : turn.time,
    );
  }
  const prefix = `locomo:${conversation.id}:`;
  let readOnly: Database.Database | null = null;
  return {
    conversation,
    project,
    now,
    diaIdOf: (memory) => (memory.sourceRef?.startsWith(prefix) ? memory.sourceRef.slice(prefix.length) : null),
    // The binding the project itself loaded: two copies of SQLite in one process must not open the
    // same file (each would drop the other's POSIX locks).
    readOnly: () => (readOnly ??= new Database(project.databaseFile, { readonly: true, fileMustExist: true, nativeBinding: findNativeBinding() })),
    close: () => {
      readOnly?.close();
      project.close();
    },
  };
}

/**
 * The clock argument of recall(): a number in v1 (`recall(store, request, now)`), options in v2
 * (`recall(store, request, { now })`). A Number carrying `now` reads as either, so this file
 * measures both; with only v2 left, pass `{ now }` directly.
 */
function clock(now: number): never {
  return Object.assign(new Number(now), { now }) as never;
}

/** Engram's recall as it ships: the question as the query, no file in focus, top 10. */
export const engramRecall: LocomoRetriever = (context, question) =>
  recall(context.project.store, { query: question, limit: 10 }, clock(context.now))
    .map((r) => context.diaIdOf(r.memory))
    .filter((id): id is string => id !== null);

export interface EvaluateOptions extends LocomoStoreOptions {
  /** Extra cut-offs for `recallAt`; 5 and 10 are always measured. */
  readonly k?: number[];
  readonly retriever?: LocomoRetriever;
  /** Already loaded conversations (the data is read once when comparing many retrievers). */
  readonly conversations?: readonly LocomoConversation[];
}

/** Scores one retriever over all conversations; each conversation gets its own temporary project. */
export async function evaluateLocomo(options: EvaluateOptions = {}): Promise<LocomoResult> {
  return evaluateMany({ ...options, retrievers: { result: options.retriever ?? engramRecall } }).then((r) => r.result!);
}

/**
 * Scores several retrievers over the same stored conversations (storing is the slow part). The
 * returned `ms` of each is the storing time plus that retriever's own question time.
 */
export async function evaluateMany(
  options: LocomoStoreOptions & { k?: number[]; conversations?: readonly LocomoConversation[]; retrievers: Record<string, LocomoRetriever> },
): Promise<Record<string, LocomoResult>> {
  const conversations = options.conversations ?? loadLocomo();
  const ks = [...new Set([5, 10, ...(options.k ?? [])])].sort((a, b) => a - b);
  const names = Object.keys(options.retrievers);
  const tallies = Object.fromEntries(names.map((n) => [n, new Tally(ks)]));
  const questionMs: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  let storeMs = 0;
  const work = mkdtempSync(path.join(tmpdir(), 'engram-locomo-'));
  try {
    for (const conversation of conversations) {
      const start = performance.now();
      const context = storeConversation(work, conversation, options);
      storeMs += performance.now() - start;
      try {
        for (const name of names) {
          const started = performance.now();
          for (const q of conversation.questions) tallies[name]!.add(q.category, q.evidence, options.retrievers[name]!(context, q.question));
          questionMs[name]! += performance.now() - started;
        }
      } finally {
        context.close();
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return Object.fromEntries(names.map((n) => [n, tallies[n]!.result(storeMs + questionMs[n]!)]));
}

class Tally {
  private questions = 0;
  private readonly sums: number[];
  private hits = 0;
  private readonly perQuestion: number[] = [];
  private readonly categories = new Map<number, { questions: number; r5: number; r10: number }>();

  constructor(private readonly ks: readonly number[]) {
    this.sums = ks.map(() => 0);
  }

  add(category: number, evidence: readonly string[], ranked: readonly string[]): void {
    const recallAt = (k: number) => {
      const top = new Set(ranked.slice(0, k));
      return evidence.filter((e) => top.has(e)).length / evidence.length;
    };
    this.questions++;
    this.ks.forEach((k, i) => (this.sums[i]! += recallAt(k)));
    if (recallAt(10) > 0) this.hits++;
    this.perQuestion.push(recallAt(10));
    const c = this.categories.get(category) ?? { questions: 0, r5: 0, r10: 0 };
    c.questions++;
    c.r5 += recallAt(5);
    c.r10 += recallAt(10);
    this.categories.set(category, c);
  }

  result(ms: number): LocomoResult {
    const n = Math.max(1, this.questions);
    const recallAt = Object.fromEntries(this.ks.map((k, i) => [k, this.sums[i]! / n]));
    const byCategory: Record<string, CategoryScore> = {};
    for (const [category, c] of [...this.categories].sort((a, b) => a[0] - b[0])) {
      byCategory[CATEGORY_NAMES[category] ?? String(category)] = { questions: c.questions, recallAt5: c.r5 / c.questions, recallAt10: c.r10 / c.questions };
    }
    return { questions: this.questions, recallAt5: recallAt[5]!, recallAt10: recallAt[10]!, hitAt10: this.hits / n, byCategory, recallAt, perQuestion: this.perQuestion, ms };
  }
}
