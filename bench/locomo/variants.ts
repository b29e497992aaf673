import type Database from 'better-sqlite3';
import { identifierParts } from '../../server/src/memory/identifierParts';
import type { LocomoProject, LocomoRetriever } from './evaluate';
import { ftsTerm, queryTerms, STOP_WORDS, withCoverage, withSessionContext } from './proposal';

/**
 * Prototypes of recall changes, measured on LoCoMo without touching server/: each variant builds
 * its own FTS5 query and scores the candidates itself, reading the project's database directly
 * (the same `memory_fts` table and porter tokenizer), so bm25 column weights can vary too. With
 * no knobs set a variant reproduces recall v1 (39f23a6) for a text-only request exactly; with
 * experiments.ts's REWRITE, recall v2 (fd6a754).
 */

/** The conventional English list (NLTK's 179 words): also drops `if`, `for`, `not`, `no`, `do`, `in`… */
export const NLTK_STOP_WORDS: ReadonlySet<string> = new Set(
  `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself
  they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having
  do does did doing a an the and but if or because as until while of at by for with about against between into through during
  before after above below to from up down in out on off over under again further then once here there when where why how all any
  both each few more most other some such no nor not only own same so than too very s t can will just don should now d ll m o re
  ve y ain aren couldn didn doesn hadn hasn haven isn ma mightn mustn needn shan shouldn wasn weren won wouldn`
    .split(/\s+/)
    .filter(Boolean),
);

export interface Variant {
  /** Query words dropped: none (v1, v2), proposal.ts's code-safe list, NLTK's, or a list of one's own. */
  readonly stop?: 'none' | 'small' | 'nltk' | ReadonlySet<string>;
  /** Also drops terms found in more than this share of the memories (corpus-adaptive stop words). */
  readonly maxDocShare?: number;
  /** `"word"*` for words of at least this many characters: matches longer words the stemmer does not join. */
  readonly prefix?: number;
  /** bm25 weights of the title, body, why and tags columns; the store's are 4, 1, 2, 2. */
  readonly weights?: readonly [number, number, number, number];
  /** Full-text candidates scored; 200 in v1, 100 in v2. */
  readonly pool?: number;
  /**
   * bm25 → text points. engram (v1): 1 + 2·(1 − e^(rank/5)); relative (v2):
   * 3 · rank / best rank of this query; bm25: −rank, for text-only rankings.
   */
  readonly text?: 'engram' | 'relative' | 'bm25';
  /** Weight of recency e^(−age/recencyDays); 1 and 30 days in v1. */
  readonly recency?: number;
  readonly recencyDays?: number;
  /** add (v1): text + recency points. multiply (v2): text × (1 + recency part). */
  readonly recencyMode?: 'add' | 'multiply';
  /** Pseudo-relevance feedback: words shared by the top `docs` results, searched too, their bm25 × `weight` added. */
  readonly prf?: { readonly docs: number; readonly terms: number; readonly weight: number };
  /** Adjacent question words searched as phrases too, their bm25 × `phrase` added. */
  readonly phrase?: number;
  /** Coordination factor (proposal.ts withCoverage). */
  readonly coverage?: number;
  /** Session context (proposal.ts withSessionContext): `span` memories each side, `weight` of their bm25. */
  readonly neighbors?: { readonly weight: number; readonly span: number };
}

interface Info {
  readonly dia: string | null;
  readonly updatedAt: number;
  readonly body: string;
  readonly session: string | null;
}

/** Per stored conversation: prepared statements, memory data by rowid, sessions in order, term lookups. */
interface Cache {
  readonly statements: Map<string, Database.Statement>;
  readonly info: Map<number, Info>;
  readonly sessions: Map<string, number[]>;
  readonly docCount: Map<string, number>;
  readonly matching: Map<string, Set<number>>;
  readonly total: number;
}

const caches = new WeakMap<LocomoProject, Cache>();

function cacheOf(context: LocomoProject): Cache {
  let cache = caches.get(context);
  if (cache) return cache;
  const info = new Map<number, Info>();
  const sessions = new Map<string, number[]>();
  const prefix = `locomo:${context.conversation.id}:`;
  const rows = context
    .readOnly()
    .prepare("SELECT rowid, source_ref, session_id, updated_at, body FROM memories WHERE status = 'active' ORDER BY created_at, rowid")
    .all() as { rowid: number; source_ref: string | null; session_id: string | null; updated_at: number; body: string }[];
  for (const r of rows) {
    info.set(r.rowid, { dia: r.source_ref?.startsWith(prefix) ? r.source_ref.slice(prefix.length) : null, updatedAt: r.updated_at, body: r.body, session: r.session_id });
    if (r.session_id) sessions.set(r.session_id, [...(sessions.get(r.session_id) ?? []), r.rowid]);
  }
  cache = { statements: new Map(), info, sessions, docCount: new Map(), matching: new Map(), total: info.size };
  caches.set(context, cache);
  return cache;
}

function prepared(context: LocomoProject, cache: Cache, sql: string): Database.Statement {
  let statement = cache.statements.get(sql);
  if (!statement) {
    statement = context.readOnly().prepare(sql);
    cache.statements.set(sql, statement);
  }
  return statement;
}

/** What toFtsQuery (v1, v2) takes from a text: every word, lowercased, plus identifier parts. */
export function allWords(text: string): string[] {
  const words = new Set<string>();
  for (const word of text.match(/[\p{L}\p{N}_]+/gu) ?? []) {
    if (word.length > 1 || /\d/.test(word)) words.add(word.toLowerCase());
    for (const part of identifierParts(word)) words.add(part);
    if (words.size >= 64) break;
  }
  return [...words];
}

function term(word: string, variant: Variant): string {
  return ftsTerm(word) + (variant.prefix !== undefined && word.length >= variant.prefix ? '*' : '');
}

function docCount(context: LocomoProject, cache: Cache, word: string): number {
  let n = cache.docCount.get(word);
  if (n === undefined) {
    n = (prepared(context, cache, 'SELECT count(*) AS n FROM memory_fts WHERE memory_fts MATCH ?').get(ftsTerm(word)) as { n: number }).n;
    cache.docCount.set(word, n);
  }
  return n;
}

/** Rowids of the memories an FTS term matches (all of them; cached, the prototype's stand-in for a store query). */
function matching(context: LocomoProject, cache: Cache, fts: string): Set<number> {
  let rows = cache.matching.get(fts);
  if (!rows) {
    rows = new Set((prepared(context, cache, 'SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?').all(fts) as { rowid: number }[]).map((r) => r.rowid));
    cache.matching.set(fts, rows);
  }
  return rows;
}

/** bm25 ranks (negative, lower is better) of the memories an OR query of `words` matches. */
function search(context: LocomoProject, cache: Cache, words: readonly string[], variant: Variant, limit: number): Map<number, number> {
  if (words.length === 0) return new Map();
  const w = (variant.weights ?? [4, 1, 2, 2]).map((x) => x.toFixed(3)).join(', ');
  const sql = `SELECT rowid, bm25(memory_fts, ${w}) AS rank FROM memory_fts WHERE memory_fts MATCH @query ORDER BY rank LIMIT @limit`;
  const query = words.map((word) => term(word, variant)).join(' OR ');
  const rows = prepared(context, cache, sql).all({ query, limit }) as { rowid: number; rank: number }[];
  return new Map(rows.map((r) => [r.rowid, r.rank]));
}

export function variantTerms(context: LocomoProject, question: string, variant: Variant): string[] {
  const all = allWords(question);
  const stop = variant.stop;
  let terms =
    stop === 'small' ? queryTerms(question) : stop === 'nltk' ? all.filter((w) => !NLTK_STOP_WORDS.has(w)) : typeof stop === 'object' ? all.filter((w) => !stop.has(w)) : all;
  if (variant.maxDocShare !== undefined) {
    const cache = cacheOf(context);
    const kept = terms.filter((w) => docCount(context, cache, w) <= variant.maxDocShare! * cache.total);
    if (kept.length) terms = kept;
  }
  // Never an empty query because of stop words: fall back to every word.
  return terms.length ? terms : all;
}

const DAY_MS = 86_400_000;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** A retriever following recall()'s steps with the variant's knobs. */
export function variantRetriever(variant: Variant): LocomoRetriever {
  return (context, question) => {
    const cache = cacheOf(context);
    const terms = variantTerms(context, question, variant);
    let ranks = search(context, cache, terms, variant, variant.pool ?? 200);
    if (variant.prf && ranks.size) ranks = feedback(context, cache, terms, ranks, variant);
    if (variant.phrase) ranks = withPhrases(context, cache, question, ranks, variant);
    if (variant.coverage) {
      // With prefix queries, a term counts as present when its prefix form matches.
      const prefixed = (fts: string) => (variant.prefix !== undefined && fts.length - 2 >= variant.prefix ? `${fts}*` : fts);
      ranks = withCoverage(ranks, terms, (fts) => matching(context, cache, prefixed(fts)), variant.coverage);
    }
    if (variant.neighbors) {
      const { weight, span } = variant.neighbors;
      ranks = withSessionContext(ranks, (rowid) => sessionNeighbours(cache, rowid, span), weight);
    }
    const best = Math.min(-1e-9, ...ranks.values());
    const recency = variant.recency ?? 1;
    const days = variant.recencyDays ?? 30;
    const scored: { info: Info; score: number }[] = [];
    for (const [rowid, rank] of ranks) {
      const info = cache.info.get(rowid);
      if (!info) continue;
      const mode = variant.text ?? 'engram';
      let score = mode === 'engram' ? round3(1 + 2 * (1 - Math.exp(rank / 5))) : mode === 'relative' ? (3 * rank) / best : -rank;
      const age = Math.max(0, context.now - info.updatedAt) / DAY_MS;
      const fresh = recency * Math.exp(-age / days);
      if (variant.recencyMode === 'multiply') score *= 1 + fresh;
      else score += round3(fresh);
      scored.push({ info, score: round3(score) });
    }
    // As recall(): ties go to the newer memory (the sort is stable, so then to the better bm25).
    scored.sort((a, b) => b.score - a.score || b.info.updatedAt - a.info.updatedAt);
    return scored.slice(0, 10).flatMap((s) => (s.info.dia === null ? [] : [s.info.dia]));
  };
}

function sessionNeighbours(cache: Cache, rowid: number, span: number): number[] {
  const session = cache.info.get(rowid)?.session;
  const order = session ? cache.sessions.get(session) : undefined;
  if (!order) return [];
  const at = order.indexOf(rowid);
  return [...order.slice(Math.max(0, at - span), at), ...order.slice(at + 1, at + 1 + span)];
}

function merge(ranks: ReadonlyMap<number, number>, extra: ReadonlyMap<number, number>, weight: number): Map<number, number> {
  const merged = new Map(ranks);
  for (const [rowid, rank] of extra) merged.set(rowid, (merged.get(rowid) ?? 0) + weight * rank);
  return new Map([...merged].sort((a, b) => a[1] - b[1] || a[0] - b[0]));
}

/**
 * Pseudo-relevance feedback: the words shared by at least two of the top results (not already
 * asked, not stop words, weighted by rarity) are searched too, their bm25 added with a lower weight.
 */
function feedback(context: LocomoProject, cache: Cache, terms: readonly string[], ranks: Map<number, number>, variant: Variant): Map<number, number> {
  const { docs, terms: count, weight } = variant.prf!;
  const asked = new Set(terms);
  const seen = new Map<string, number>();
  const top = [...ranks].sort((a, b) => a[1] - b[1]).slice(0, docs);
  for (const [rowid] of top) {
    for (const word of new Set(allWords(cache.info.get(rowid)?.body ?? ''))) {
      if (asked.has(word) || STOP_WORDS.has(word) || NLTK_STOP_WORDS.has(word) || word.length < 3) continue;
      seen.set(word, (seen.get(word) ?? 0) + 1);
    }
  }
  const expansion = [...seen]
    .filter(([, n]) => n >= Math.min(2, docs))
    .map(([word, n]) => ({ word, weight: n * Math.log(cache.total / (1 + docCount(context, cache, word))) }))
    .filter((c) => c.weight > 0)
    .sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : 1))
    .slice(0, count)
    .map((c) => c.word);
  return expansion.length ? merge(ranks, search(context, cache, expansion, variant, variant.pool ?? 200), weight) : ranks;
}

/** Pairs of adjacent question words (no stop word between) searched as phrases; their bm25 × `phrase` added. */
function withPhrases(context: LocomoProject, cache: Cache, question: string, ranks: Map<number, number>, variant: Variant): Map<number, number> {
  const words = (question.match(/[\p{L}\p{N}_']+/gu) ?? []).map((w) => w.toLowerCase().replace(/'s$/, '').replace(/'/g, ''));
  const phrases: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const [a, b] = [words[i]!, words[i + 1]!];
    if (a.length > 1 && b.length > 1 && !STOP_WORDS.has(a) && !STOP_WORDS.has(b)) phrases.push(`"${a} ${b}"`);
  }
  if (!phrases.length) return ranks;
  const w = (variant.weights ?? [4, 1, 2, 2]).map((x) => x.toFixed(3)).join(', ');
  const sql = `SELECT rowid, bm25(memory_fts, ${w}) AS rank FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rank LIMIT 200`;
  const hits = prepared(context, cache, sql).all(phrases.join(' OR ')) as { rowid: number; rank: number }[];
  return merge(ranks, new Map(hits.map((h) => [h.rowid, h.rank])), variant.phrase!);
}
