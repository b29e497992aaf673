import path from 'node:path';
import type { Memory, MemoryKind } from '../memory/types';
import { globMatches } from '../constraints/scope';
import { GenerationMap } from '../store/generationMap';
import type { CandidateRow, MemoryStore } from '../store/memoryStore';
import type { Usage, UsageStore } from '../store/usageStore';
import { queryTerms } from './terms';
import { RANKED_POSTINGS, searchText, type TextMatches } from './textSearch';
import { DEFAULT_WEIGHTS, KIND_WEIGHT, type RecallWeights } from './weights';

export interface RecallRequest {
  /** Free text: a question, a prompt, identifiers. */
  readonly query?: string;
  /** Project-relative path of the file in focus. */
  readonly file?: string;
  /** Zero-based line in `file`. */
  readonly line?: number;
  /** Qualified name of the declaration at the cursor (`Parser.parseExpr`), when known. */
  readonly symbol?: string;
  /** Other files open in the editor, project-relative. */
  readonly openFiles?: readonly string[];
  readonly kinds?: readonly MemoryKind[];
  /** Explicit searches also find archived memories (ranked lower); auto-context never does. */
  readonly includeArchived?: boolean;
  readonly limit: number;
}

export interface RecallOptions {
  readonly weights?: RecallWeights;
  readonly now?: number;
  readonly usage?: UsageStore;
  /** Memories to leave out (e.g. what an agent session was already given). */
  readonly exclude?: ReadonlySet<string>;
  /**
   * Postings FTS5 ranks per query (textSearch.ts; default RANKED_POSTINGS). Infinity ranks every
   * word with bm25, however common: what recall did before term counts, slow at scale; the bench
   * compares the two.
   */
  readonly rankedPostings?: number;
}

/** One named part of a score, so every result can say why it ranked where it did. */
export interface ScorePart {
  readonly reason: string;
  readonly points: number;
}

export interface ScoredMemory {
  readonly memory: Memory;
  readonly score: number;
  readonly explanation: readonly ScorePart[];
  /** bm25 of the full-text match (negative; lower is better), when the memory matched the query. */
  readonly textRank?: number;
  /** Relevance before priors: text, file and symbol parts only. */
  readonly relevance: number;
}

const TEXT_CANDIDATES = 100;
const FILE_CANDIDATES = 100;
const FOLDER_CANDIDATES = 50;
const SYMBOL_CANDIDATES = 50;
const OPEN_FILE_CANDIDATES = 20;
const MAX_OPEN_FILES = 8;
const RECENT_CANDIDATES = 100;
const DAY_MS = 86_400_000;
const ARCHIVED_PENALTY = 0.5;
/** Relevance of a candidate found by nothing but recency (no query, no file). */
const BASE_RELEVANCE = 0.1;
/** The priors' total at which relevance doubles: about their sum at default weights. */
const PRIOR_SCALE = 5.5;
const MIN_MULTIPLIER = 0.25;

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function folderOf(file: string): string {
  const dir = path.posix.dirname(file);
  return dir === '.' ? '' : dir;
}

/** Whether `file` is directly in `folder` ('' = the project's root): folderOf(file) === folder, without building the folder's string. */
function isDirectlyIn(file: string, folder: string): boolean {
  if (!folder) return !file.includes('/');
  return file.length > folder.length + 1 && file.charCodeAt(folder.length) === 47 && file.startsWith(folder) && file.indexOf('/', folder.length + 1) < 0;
}

/** 1 for the file itself, 0.5 for its folder, 0.3 for a file open in the editor, else 0. */
function fileProximity(row: CandidateRow, request: RecallRequest, explain: boolean): ScorePart | null {
  const { file } = request;
  if (file) {
    if (row.files.includes(file) || row.anchor?.path === file) return { reason: explain ? `about ${file}` : '', points: 1 };
    if (row.glob && globMatches(row.glob, file)) return { reason: explain ? `applies to ${row.glob}` : '', points: 1 };
    const folder = folderOf(file);
    if (row.files.some((f) => isDirectlyIn(f, folder))) return { reason: explain ? `same folder as ${file}` : '', points: 0.5 };
  }
  const open = request.openFiles?.find((f) => row.files.includes(f));
  return open ? { reason: explain ? `about ${open}, open in the editor` : '', points: 0.3 } : null;
}

/** Text matches of recent queries per store, valid while no memory changes (MemoryStore.generation). */
const recentTextMatches = new WeakMap<MemoryStore, GenerationMap<string, TextMatches | null>>();
const RECENT_QUERIES = 16;

/**
 * Full-text candidates of a query with their coverage-scaled ranks. A hook recalls for the same
 * prompt up to four times (the prompt alone, each file it names, the editor's place): the search
 * runs once. Null when the query has no words worth searching.
 */
function textMatches(store: MemoryStore, query: string, budget: number): TextMatches | null {
  let recent = recentTextMatches.get(store);
  if (!recent) {
    recent = new GenerationMap(RECENT_QUERIES);
    recentTextMatches.set(store, recent);
  }
  recent.sync(store.generation());
  return recent.getOrCompute(`${budget}\0${query}`, () => {
    const terms = queryTerms(query);
    return terms.length ? searchText(store, terms, TEXT_CANDIDATES, budget) : null;
  });
}

/** A constraint with no file or glob governs every file. */
function projectWide(row: CandidateRow, request: RecallRequest): ScorePart | null {
  if (!request.file || row.kind !== 'constraint' || row.files.length || row.anchor || row.glob) return null;
  return { reason: 'applies to the whole project', points: 1 };
}

/** 1 for the symbol at the cursor (or pinned code under it), 0.6 for its container or members. */
function symbolMatch(row: CandidateRow, request: RecallRequest, explain: boolean): ScorePart | null {
  if (request.line !== undefined && row.anchor && !row.anchor.stale && row.anchor.path === request.file && request.line >= row.anchor.startLine && request.line <= row.anchor.endLine) {
    return { reason: explain ? `pinned to line ${request.line + 1}` : '', points: 1 };
  }
  const symbol = request.symbol;
  if (!symbol) return null;
  // Names repeat across files (`close`, `main`): with a file in focus, only its own symbols count.
  if (request.file && !row.files.includes(request.file) && row.anchor?.path !== request.file) return null;
  if (row.symbols.includes(symbol)) return { reason: explain ? `about ${symbol}` : '', points: 1 };
  const related = row.symbols.find((s) => isMemberOf(symbol, s) || isMemberOf(s, symbol));
  return related ? { reason: explain ? `about ${related}, related to ${symbol}` : '', points: 0.6 } : null;
}

/** Laplace-smoothed share of showings that were acted on, centred on 0: [-1, 1]. */
function usageScore(usage: Usage | undefined, explain: boolean): ScorePart | null {
  if (!usage || usage.shown === 0) return null;
  const points = 2 * ((usage.acted + 1) / (usage.shown + 2) - 0.5);
  return { reason: explain ? `shown ${usage.shown}×, used ${usage.acted}×` : '', points };
}

/** `Parser.parseExpr` is a member of `Parser` (without building `Parser.` for every candidate). */
function isMemberOf(member: string, container: string): boolean {
  return member.length > container.length && member.charCodeAt(container.length) === 46 && member.startsWith(container);
}

/**
 * Recall: the memories that matter for a query and/or a place in the code, best first, each
 * with the parts of its score. score = Σ weight × part over text relevance (bm25, relative to
 * the best match), file proximity, symbol match, recency, kind, importance, pin and usage
 * (docs/recall.md). Candidates come from indexes (full text, file, folder, symbol, open files,
 * project-wide constraints), so the cost does not grow with the size of the store.
 */
export function recall(store: MemoryStore, request: RecallRequest, options: RecallOptions = {}): ScoredMemory[] {
  return store.atOneGeneration(() => recallAtOneGeneration(store, request, options));
}

function recallAtOneGeneration(store: MemoryStore, request: RecallRequest, options: RecallOptions): ScoredMemory[] {
  const w = options.weights ?? DEFAULT_WEIGHTS;
  const now = options.now ?? Date.now();
  const matches = request.query ? textMatches(store, request.query, options.rankedPostings ?? RANKED_POSTINGS) : null;
  const hasText = matches !== null;
  const text = new Map<number, number>(matches?.ranks);

  const rowids = new Set<number>(text.keys());
  if (request.file) {
    for (const r of store.rowidsForFile(request.file, FILE_CANDIDATES)) rowids.add(r);
    for (const r of store.rowidsUnderFolder(folderOf(request.file), FOLDER_CANDIDATES)) rowids.add(r);
    for (const r of store.rowidsUntaggedConstraints()) rowids.add(r);
  }
  if (request.symbol) for (const r of store.rowidsForSymbol(request.symbol, SYMBOL_CANDIDATES)) rowids.add(r);
  for (const open of (request.openFiles ?? []).slice(0, MAX_OPEN_FILES)) for (const r of store.rowidsForFile(open, OPEN_FILE_CANDIDATES)) rowids.add(r);
  if (!hasText && !request.file && !request.symbol) for (const r of store.rowidsRecent(RECENT_CANDIDATES)) rowids.add(r);

  const rows = store.candidates([...rowids]).filter(
    (row) =>
      (row.status === 'active' || (request.includeArchived && row.status === 'archived')) &&
      !options.exclude?.has(row.id) &&
      (!request.kinds || request.kinds.includes(row.kind)),
  );
  if (matches?.rankOthers) {
    const others = rows.filter((row) => !text.has(row.rowid)).map((row) => row.rowid);
    if (others.length) for (const [rowid, rank] of matches.rankOthers(others)) text.set(rowid, rank);
  }
  const usage = options.usage?.byRowid(rows.map((r) => r.rowid)) ?? new Map<number, Usage>();
  const bestRank = Math.min(-1e-9, ...text.values());

  const context: ScoringContext = { request, weights: w, now, text, bestRank, usage };
  const scored = rows.map((row) => scoreRow(context, row, false));
  scored.sort((a, b) => b.score - a.score || b.row.updatedAt - a.row.updatedAt || b.row.rowid - a.row.rowid);
  const top = scored.slice(0, request.limit).map((s) => scoreRow(context, s.row, true));
  const memories = new Map(store.byRowids(top.map((s) => s.row.rowid)).map((m) => [m.id, m]));
  return top.flatMap((s) => {
    const memory = memories.get(s.row.id);
    return memory ? [{ memory, score: s.score, explanation: s.parts, relevance: s.relevance, ...(s.textRank === undefined ? {} : { textRank: s.textRank }) }] : [];
  });
}

interface ScoringContext {
  readonly request: RecallRequest;
  readonly weights: RecallWeights;
  readonly now: number;
  readonly text: ReadonlyMap<number, number>;
  readonly bestRank: number;
  readonly usage: ReadonlyMap<number, Usage>;
}

function addPart(into: ScorePart[], part: ScorePart | null, weight: number): void {
  if (part && part.points !== 0 && weight !== 0) into.push({ reason: part.reason, points: part.points * weight });
}

/** One candidate's score; its parts are worded only when `explain` (hundreds of candidates are scored per recall, ten shown). */
function scoreRow(context: ScoringContext, row: CandidateRow, explain: boolean): { row: CandidateRow; parts: ScorePart[]; score: number; relevance: number; textRank: number | undefined } {
  const { request, weights: w, now, text, bestRank, usage } = context;
  // Relevance: how well the memory matches what was asked and where.
  const relevance: ScorePart[] = [];
  const prior: ScorePart[] = [];
  const rank = text.get(row.rowid);
  if (rank !== undefined) addPart(relevance, { reason: 'text match', points: rank / bestRank }, w.text);
  addPart(relevance, fileProximity(row, request, explain) ?? projectWide(row, request), w.file);
  addPart(relevance, symbolMatch(row, request, explain), w.symbol);
  if (!relevance.length) relevance.push({ reason: 'recent', points: BASE_RELEVANCE });
  // Priors: what the memory is worth anywhere. They scale relevance, never replace it, so a
  // pinned rule does not outrank a clearly better match for an explicit question.
  const ageDays = Math.max(0, now - row.updatedAt) / DAY_MS;
  addPart(prior, { reason: explain ? `updated ${ageDays < 1 ? 'today' : `${Math.round(ageDays)} d ago`}` : '', points: Math.pow(0.5, ageDays / w.halfLifeDays) }, w.recency);
  addPart(prior, { reason: row.kind, points: KIND_WEIGHT[row.kind] }, w.kind);
  addPart(prior, { reason: explain ? `importance ${row.importance}` : '', points: row.importance }, w.importance);
  if (row.pin !== 'none') addPart(prior, { reason: explain ? `${row.pin} pin` : '', points: row.pin === 'hard' ? 1 : 0.5 }, w.pin);
  addPart(prior, usageScore(usage.get(row.rowid), explain), w.usage);
  if (row.status === 'archived') prior.push({ reason: 'archived', points: -ARCHIVED_PENALTY * PRIOR_SCALE });
  let base = 0;
  for (const p of relevance) base += p.points;
  let lift = 0;
  for (const p of prior) lift += p.points;
  lift /= PRIOR_SCALE;
  const multiplier = Math.max(MIN_MULTIPLIER, 1 + lift);
  // Shown as additive parts that sum to the score: relevance as is (less what a floor on the
  // multiplier adds back), and each prior as its share of the lift.
  const floorShift = multiplier - (1 + lift);
  const parts = explain
    ? [
        ...relevance.map((p) => ({ reason: p.reason, points: round(p.points * (1 + floorShift)) })),
        ...prior.map((p) => ({ reason: p.reason, points: round((base * p.points) / PRIOR_SCALE) })),
      ]
    : [];
  return { row, parts, score: round(base * multiplier), relevance: round(base), textRank: rank };
}
