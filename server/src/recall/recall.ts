import type { Memory, MemoryKind } from '../memory/types';
import { GenerationMap } from '../store/generationMap';
import type { CandidateRow, MemoryStore } from '../store/memoryStore';
import type { Usage, UsageStore } from '../store/usageStore';
import { folderOf, UNSEEN_PATH } from '../store/pathIds';
import { explainScore, scoreOf, type ScorePart, type ScoringContext } from './scoring';
import { lineWriters } from './lineWriters';
import { queryTerms } from './terms';
import { RANKED_POSTINGS, searchText, type TextMatches } from './textSearch';
import { DEFAULT_WEIGHTS, type RecallWeights } from './weights';

export type { ScorePart } from './scoring';

export interface RecallRequest {
  /** Free text: a question, a prompt, identifiers. */
  readonly query?: string;
  /** Project-relative path of the file in focus. */
  readonly file?: string;
  /** Zero-based line in `file`. */
  readonly line?: number;
  /** The text of `line`, when known: the diff memories that wrote it count as about the line. */
  readonly lineText?: string;
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
  // The search's ranks are shared with later recalls of the same query: read, never copied or changed.
  const matched = matches?.ranks ?? NO_RANKS;

  // Each candidate once, in the order found (no spread of a Set: its iterator allocates).
  const seen = new Set<number>();
  const rowids: number[] = [];
  const take = (rowid: number) => {
    if (seen.has(rowid)) return;
    seen.add(rowid);
    rowids.push(rowid);
  };
  const takeAll = (list: readonly number[]) => {
    for (let i = 0; i < list.length; i++) take(list[i]!);
  };
  matched.forEach((_, rowid) => take(rowid));
  if (request.file) {
    takeAll(store.reads.rowidsForFile(request.file, FILE_CANDIDATES));
    takeAll(store.reads.rowidsUnderFolder(folderOf(request.file), FOLDER_CANDIDATES));
    takeAll(store.reads.rowidsUntaggedConstraints());
  }
  if (request.symbol) takeAll(store.reads.rowidsForSymbol(request.symbol, SYMBOL_CANDIDATES));
  const writers = request.file && request.lineText !== undefined ? lineWriters(store, request.file, request.lineText) : [];
  takeAll(writers);
  for (const open of (request.openFiles ?? []).slice(0, MAX_OPEN_FILES)) takeAll(store.reads.rowidsForFile(open, OPEN_FILE_CANDIDATES));
  if (!hasText && !request.file && !request.symbol) takeAll(store.reads.rowidsRecent(RECENT_CANDIDATES));

  const rows = store.reads.candidates(rowids).filter(
    (row) =>
      (row.status === 'active' || (request.includeArchived && row.status === 'archived')) &&
      !options.exclude?.has(row.id) &&
      (!request.kinds || request.kinds.includes(row.kind)),
  );
  let others: ReadonlyMap<number, number> = NO_RANKS;
  if (matches?.rankOthers) {
    const unmatched: number[] = [];
    for (const row of rows) if (!matched.has(row.rowid)) unmatched.push(row.rowid);
    if (unmatched.length) others = matches.rankOthers(unmatched);
  }
  const text = new TextRanks(matched, others, matches?.neighboursOnly);
  const usage = options.usage?.byRowid(rows.map((r) => r.rowid)) ?? new Map<number, Usage>();
  let bestRank = -1e-9;
  const lower = (rank: number) => {
    if (rank < bestRank) bestRank = rank;
  };
  matched.forEach(lower);
  others.forEach(lower);

  // After the candidates are read: their paths have numbers by now.
  const place = request.file ? store.reads.pathId(request.file) : UNSEEN_PATH;
  const context: ScoringContext = { request, weights: w, now, text, bestRank, usage, folder: request.file ? folderOf(request.file) : '', place, lineWriters: new Set(writers) };
  const top = bestOf(rows, rows.map((row) => scoreOf(context, row)), request.limit).map((row) => ({ row, ...explainScore(context, row) }));
  const memories = new Map(store.reads.byRowids(top.map((s) => s.row.rowid)).map((m) => [m.id, m]));
  return top.flatMap((s) => {
    const memory = memories.get(s.row.id);
    return memory ? [{ memory, score: s.score, explanation: s.parts, relevance: s.relevance, ...(s.textRank === undefined ? {} : { textRank: s.textRank }) }] : [];
  });
}

const NO_RANKS: ReadonlyMap<number, number> = new Map();

/** A recall's text ranks: the search's, and those its words gave candidates found another way (never both). */
class TextRanks {
  constructor(
    private readonly matched: ReadonlyMap<number, number>,
    private readonly others: ReadonlyMap<number, number>,
    private readonly neighboursOnly: ReadonlySet<number> = NO_ROWIDS,
  ) {}

  get(rowid: number): number | undefined {
    return this.matched.get(rowid) ?? this.others.get(rowid);
  }

  /** Whether the rank is only for being recorded next to a match in the same session. */
  viaSession(rowid: number): boolean {
    return this.neighboursOnly.has(rowid);
  }
}

const NO_ROWIDS: ReadonlySet<number> = new Set();

/** Whether candidate a ranks before b: higher score, then newer, then the later rowid. */
function before(a: CandidateRow, aScore: number, b: CandidateRow, bScore: number): boolean {
  return aScore !== bScore ? aScore > bScore : a.updatedAt !== b.updatedAt ? a.updatedAt > b.updatedAt : a.rowid > b.rowid;
}

/** The best `limit` rows, best first: kept in order as they come (a recall keeps ten of hundreds). */
function bestOf(rows: readonly CandidateRow[], scores: readonly number[], limit: number): CandidateRow[] {
  const kept: number[] = [];
  if (limit <= 0) return [];
  for (let i = 0; i < rows.length; i++) {
    if (kept.length >= limit) {
      const last = kept[kept.length - 1]!;
      if (!before(rows[i]!, scores[i]!, rows[last]!, scores[last]!)) continue;
      kept.pop();
    }
    let at = kept.length;
    while (at > 0 && before(rows[i]!, scores[i]!, rows[kept[at - 1]!]!, scores[kept[at - 1]!]!)) at--;
    kept.splice(at, 0, i);
  }
  return kept.map((i) => rows[i]!);
}
