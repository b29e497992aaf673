import { globMatches } from '../constraints/scope';
import type { CandidateRow } from '../store/memoryStore';
import type { PathId } from '../store/pathIds';
import type { Usage } from '../store/usageStore';
import type { RecallRequest } from './recall';
import { KIND_WEIGHT, type RecallWeights } from './weights';

/** One named part of a score, so every result can say why it ranked where it did. */
export interface ScorePart {
  readonly reason: string;
  readonly points: number;
}

/** What a recall scores its candidates against, worked out once per recall. */
export interface ScoringContext {
  readonly request: RecallRequest;
  readonly weights: RecallWeights;
  readonly now: number;
  /** Text ranks of the candidates that matched the query (negative; lower is better). */
  readonly text: { get(rowid: number): number | undefined; viaSession?(rowid: number): boolean };
  readonly bestRank: number;
  readonly usage: ReadonlyMap<number, Usage>;
  /** The folder of request.file ('' = the project's root). */
  readonly folder: string;
  /** request.file and its folder by number, as the candidates' soleFile and soleFolder (UNSEEN_PATH without a file). */
  readonly place: PathId;
  /** Rowids of the diff memories that wrote the line at the cursor (lineWriters.ts). */
  readonly lineWriters?: ReadonlySet<number>;
}

export interface ExplainedScore {
  readonly parts: ScorePart[];
  readonly score: number;
  readonly relevance: number;
  readonly textRank: number | undefined;
}

const DAY_MS = 86_400_000;
const ARCHIVED_PENALTY = 0.5;
/** Relevance of a candidate found by nothing but recency (no query, no file). */
const BASE_RELEVANCE = 0.1;
/** The priors' total at which relevance doubles: about their sum at default weights. */
const PRIOR_SCALE = 5.5;
const MIN_MULTIPLIER = 0.25;

/** How a candidate relates to the file in focus, and what that is worth. */
type FileMatch = 'file' | 'glob' | 'folder' | 'open' | 'project';
const FILE_POINTS: Readonly<Record<FileMatch, number>> = { file: 1, glob: 1, folder: 0.5, open: 0.3, project: 1 };

/** How a candidate relates to the code at the cursor, and what that is worth. */
type SymbolMatch = 'line' | 'wrote' | 'symbol' | 'related';
const SYMBOL_POINTS: Readonly<Record<SymbolMatch, number>> = { line: 1, wrote: 1, symbol: 1, related: 0.6 };
/** The share of text relevance kept by a memory about another file than the one in focus (textShare). */
const ELSEWHERE_TEXT_SHARE = 0.5;

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Whether `file` is directly in `folder` ('' = the project's root): folderOf(file) === folder, without building the folder's string. */
function isDirectlyIn(file: string, folder: string): boolean {
  if (!folder) return !file.includes('/');
  return file.length > folder.length + 1 && file.charCodeAt(folder.length) === 47 && file.startsWith(folder) && file.indexOf('/', folder.length + 1) < 0;
}

/** `Parser.parseExpr` is a member of `Parser` (without building `Parser.` for every candidate). */
function isMemberOf(member: string, container: string): boolean {
  return member.length > container.length && member.charCodeAt(container.length) === 46 && member.startsWith(container);
}

/** Whether the memory is about the file in focus: tagged with it, or pinned to code in it. */
function isAboutFile(row: CandidateRow, context: ScoringContext, file: string): boolean {
  if (row.anchor?.path === file) return true;
  // One tagged file (most memories): its number, without reading the tag list.
  return row.soleFile >= 0 ? row.soleFile === context.place.file : row.files.includes(file);
}

/** The file itself (or a glob over it), its folder, a file open in the editor; a constraint with no file or glob governs every file. */
function fileMatch(row: CandidateRow, context: ScoringContext): FileMatch | null {
  const { file, openFiles } = context.request;
  if (file) {
    if (isAboutFile(row, context, file)) return 'file';
    if (row.glob && globMatches(row.glob, file)) return 'glob';
    if (row.soleFile >= 0) {
      if (row.soleFolder === context.place.folder) return 'folder';
    } else for (let i = 0; i < row.files.length; i++) if (isDirectlyIn(row.files[i]!, context.folder)) return 'folder';
  }
  if (openFiles) for (const f of row.files) if (openFiles.includes(f)) return 'open';
  if (file && row.kind === 'constraint' && !row.files.length && !row.anchor && !row.glob) return 'project';
  return null;
}

/** The memory's symbol at the cursor (or pinned code under it), or its container or members. */
function symbolMatch(row: CandidateRow, context: ScoringContext): SymbolMatch | null {
  const request = context.request;
  if (request.line !== undefined && row.anchor && !row.anchor.stale && row.anchor.path === request.file && request.line >= row.anchor.startLine && request.line <= row.anchor.endLine) return 'line';
  const writers = context.lineWriters;
  if (writers?.has(row.rowid)) return 'wrote';
  const symbol = request.symbol;
  if (!symbol) return null;
  // Names repeat across files (`close`, `main`): with a file in focus, only its own symbols count.
  if (request.file && !isAboutFile(row, context, request.file)) return null;
  // The symbol's other changes, when some are known to have written the line: its history, not the line's.
  if (row.symbols.includes(symbol)) return writers?.size && row.kind === 'diff' ? 'related' : 'symbol';
  for (const s of row.symbols) if (isMemberOf(symbol, s) || isMemberOf(s, symbol)) return 'related';
  return null;
}

/**
 * The share of its text match a memory keeps: with a file in focus, a memory about another file
 * (even one in the same folder) shares the question's words more often than its subject.
 */
function textShare(file: FileMatch | null, request: RecallRequest): number {
  return !request.file || file === 'file' || file === 'glob' || file === 'project' ? 1 : ELSEWHERE_TEXT_SHARE;
}

/** Laplace-smoothed share of showings that were acted on, centred on 0: [-1, 1]; 0 when never shown. */
function usagePoints(usage: Usage | undefined): number {
  return !usage || usage.shown === 0 ? 0 : 2 * ((usage.acted + 1) / (usage.shown + 2) - 0.5);
}

function recencyPoints(row: CandidateRow, context: ScoringContext): number {
  return Math.pow(0.5, Math.max(0, context.now - row.updatedAt) / DAY_MS / context.weights.halfLifeDays);
}

/**
 * A candidate's score, as explainScore gives it, without wording a part: recall scores hundreds
 * of candidates and explains ten. The sums run in the same order, so the numbers are the same.
 */
export function scoreOf(context: ScoringContext, row: CandidateRow): number {
  const w = context.weights;
  let base = 0;
  let any = false;
  const rank = context.text.get(row.rowid);
  const file = fileMatch(row, context);
  if (rank !== undefined && rank !== 0 && w.text !== 0) {
    base += (rank / context.bestRank) * textShare(file, context.request) * w.text;
    any = true;
  }
  if (file && w.file !== 0) {
    base += FILE_POINTS[file] * w.file;
    any = true;
  }
  const symbol = symbolMatch(row, context);
  if (symbol && w.symbol !== 0) {
    base += SYMBOL_POINTS[symbol] * w.symbol;
    any = true;
  }
  if (!any) base = BASE_RELEVANCE;
  let lift = 0;
  if (w.recency !== 0) lift += recencyPoints(row, context) * w.recency;
  if (w.kind !== 0) lift += KIND_WEIGHT[row.kind] * w.kind;
  if (w.importance !== 0 && row.importance !== 0) lift += row.importance * w.importance;
  if (row.pin !== 'none' && w.pin !== 0) lift += (row.pin === 'hard' ? 1 : 0.5) * w.pin;
  const usage = usagePoints(context.usage.get(row.rowid));
  if (usage !== 0 && w.usage !== 0) lift += usage * w.usage;
  if (row.status === 'archived') lift += -ARCHIVED_PENALTY * PRIOR_SCALE;
  lift /= PRIOR_SCALE;
  return round(base * Math.max(MIN_MULTIPLIER, 1 + lift));
}

function addPart(into: ScorePart[], reason: string, points: number, weight: number): void {
  if (points !== 0 && weight !== 0) into.push({ reason, points: points * weight });
}

function fileReason(match: FileMatch, row: CandidateRow, request: RecallRequest): string {
  const file = request.file ?? '';
  switch (match) {
    case 'file':
      return `about ${file}`;
    case 'glob':
      return `applies to ${row.glob}`;
    case 'folder':
      return `same folder as ${file}`;
    case 'open':
      return `about ${request.openFiles?.find((f) => row.files.includes(f))}, open in the editor`;
    case 'project':
      return 'applies to the whole project';
  }
}

function symbolReason(match: SymbolMatch, row: CandidateRow, request: RecallRequest): string {
  const symbol = request.symbol ?? '';
  switch (match) {
    case 'line':
      return `pinned to line ${(request.line ?? 0) + 1}`;
    case 'wrote':
      return `wrote line ${(request.line ?? 0) + 1}`;
    case 'symbol':
      return `about ${symbol}`;
    case 'related':
      return row.symbols.includes(symbol) ? `about ${symbol}, not its line` : `about ${row.symbols.find((s) => isMemberOf(symbol, s) || isMemberOf(s, symbol))}, related to ${symbol}`;
  }
}

/**
 * A candidate's score with its parts worded: score = relevance × max(MIN_MULTIPLIER, 1 + Σ priors /
 * PRIOR_SCALE) (docs/recall.md), shown as additive parts that sum to the score.
 */
export function explainScore(context: ScoringContext, row: CandidateRow): ExplainedScore {
  const { request, weights: w, now, text, bestRank, usage } = context;
  // Relevance: how well the memory matches what was asked and where.
  const relevance: ScorePart[] = [];
  const prior: ScorePart[] = [];
  const rank = text.get(row.rowid);
  const file = fileMatch(row, context);
  if (rank !== undefined) addPart(relevance, text.viaSession?.(row.rowid) ? 'next to a match in the same session' : 'text match', (rank / bestRank) * textShare(file, request), w.text);
  if (file) addPart(relevance, fileReason(file, row, request), FILE_POINTS[file], w.file);
  const symbol = symbolMatch(row, context);
  if (symbol) addPart(relevance, symbolReason(symbol, row, request), SYMBOL_POINTS[symbol], w.symbol);
  if (!relevance.length) relevance.push({ reason: 'recent', points: BASE_RELEVANCE });
  // Priors: what the memory is worth anywhere. They scale relevance, never replace it, so a
  // pinned rule does not outrank a clearly better match for an explicit question.
  const ageDays = Math.max(0, now - row.updatedAt) / DAY_MS;
  addPart(prior, `updated ${ageDays < 1 ? 'today' : `${Math.round(ageDays)} d ago`}`, recencyPoints(row, context), w.recency);
  addPart(prior, row.kind, KIND_WEIGHT[row.kind], w.kind);
  addPart(prior, `importance ${row.importance}`, row.importance, w.importance);
  if (row.pin !== 'none') addPart(prior, `${row.pin} pin`, row.pin === 'hard' ? 1 : 0.5, w.pin);
  const used = usage.get(row.rowid);
  if (used) addPart(prior, `shown ${used.shown}×, used ${used.acted}×`, usagePoints(used), w.usage);
  if (row.status === 'archived') prior.push({ reason: 'archived', points: -ARCHIVED_PENALTY * PRIOR_SCALE });
  let base = 0;
  for (const p of relevance) base += p.points;
  let lift = 0;
  for (const p of prior) lift += p.points;
  lift /= PRIOR_SCALE;
  const multiplier = Math.max(MIN_MULTIPLIER, 1 + lift);
  // Relevance as is (less what a floor on the multiplier adds back), and each prior as its share of the lift.
  const floorShift = multiplier - (1 + lift);
  const parts = [
    ...relevance.map((p) => ({ reason: p.reason, points: round(p.points * (1 + floorShift)) })),
    ...prior.map((p) => ({ reason: p.reason, points: round((base * p.points) / PRIOR_SCALE) })),
  ];
  return { parts, score: round(base * multiplier), relevance: round(base), textRank: rank };
}
