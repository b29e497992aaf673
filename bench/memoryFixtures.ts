import { anchorLines } from '../server/src/anchors/anchorFromText';
import { diffTitle } from '../server/src/capture/diffTitle';
import type { Memory, MemoryId, MemoryKind, MemorySource, PinLevel } from '../server/src/memory/types';
import { ADJECTIVES, between, capitalized, DOMAINS, generateFiles, pick, PROBLEMS, ROOTS, seededRandom, VERBS, type FileLanguage, type GeneratedFile, type Random } from './projectFixtures';

/**
 * A year of memory of the generated project (projectFixtures.ts): diff memories with unified
 * patches of a few hundred bytes to a few KB, and decisions, constraints, gotchas, facts, intents,
 * notes and summaries in prose that names its code; some pinned, some anchored to code. A few
 * files get most of the attention, as in real projects. Also the recall requests to ask of it.
 */

const DAY_MS = 86_400_000;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** An id in the store's format (`m_` + time + randomness), from the seeded generator. */
function memoryId(time: number, random: Random): MemoryId {
  let head = '';
  for (let i = 0, t = time; i < 10; i++, t = Math.floor(t / 32)) head = CROCKFORD[t % 32] + head;
  let tail = '';
  for (let i = 0; i < 16; i++) tail += CROCKFORD[Math.floor(random() * 32)];
  return `m_${head}${tail}` as MemoryId;
}

function identifier(file: GeneratedFile, random: Random): string {
  return pick(random, file.symbols);
}

function patchLine(file: GeneratedFile, random: Random): string {
  const noun = pick(random, file.nouns);
  const other = pick(random, file.nouns);
  switch (Math.floor(random() * 8)) {
    case 0:
      return `const ${pick(random, ADJECTIVES)}${capitalized(noun)} = await this.${pick(random, VERBS)}${capitalized(other)}(${noun}Id);`;
    case 1:
      return `if (!${noun} || ${noun}.${pick(random, ['status', 'expiresAt', 'version', 'owner'])} === ${pick(random, ["'closed'", 'undefined', 'null', '0'])}) return null;`;
    case 2:
      return `logger.${pick(random, ['info', 'warn', 'debug'])}('${pick(random, VERBS)} ${noun}', { ${noun}Id, attempt });`;
    case 3:
      return `throw new ${capitalized(noun)}Error(\`cannot ${pick(random, VERBS)} ${noun} \${${noun}Id}: ${pick(random, ADJECTIVES)} ${other}\`);`;
    case 4:
      return `for (const ${other} of ${noun}.${other}s) total += ${other}.amount * ${(random() * 3).toFixed(2)};`;
    case 5:
      return `await db.query('SELECT * FROM ${noun}s WHERE ${other}_id = $1 LIMIT ${between(random, 1, 500)}', [${other}Id]);`;
    case 6:
      return `return ${identifier(file, random).split('.').pop()}(${noun}, { timeoutMs: ${between(random, 1, 60) * 1000} });`;
    default:
      return `this.${pick(random, ['pending', 'cache', 'locks', 'seen'])}.${pick(random, ['set', 'delete', 'get'])}(${noun}Id${random() < 0.5 ? `, ${between(random, 0, 99)}` : ''});`;
  }
}

/** A unified diff of one to four hunks, a few hundred bytes to a few KB. */
function patchFor(file: GeneratedFile, symbols: readonly string[], random: Random): { patch: string; added: number; removed: number; lines: [number, number][] } {
  const out = [`--- a/${file.path}`, `+++ b/${file.path}`];
  let added = 0;
  let removed = 0;
  const spans: [number, number][] = [];
  const hunks = random() < 0.7 ? 1 : between(random, 2, 4);
  let line = between(random, 1, 60);
  for (let h = 0; h < hunks; h++) {
    const context = between(random, 1, 3);
    const minus = random() < 0.25 ? 0 : between(random, 1, random() < 0.85 ? 3 : 12);
    const plus = between(random, minus === 0 ? 1 : 0, random() < 0.85 ? 4 : 20);
    const symbol = symbols[h % Math.max(1, symbols.length)];
    out.push(`@@ -${line},${context * 2 + minus} +${line},${context * 2 + plus} @@${symbol ? ` ${symbol.split('.')[0]}` : ''}`);
    for (let i = 0; i < context; i++) out.push(`     ${patchLine(file, random)}`);
    for (let i = 0; i < minus; i++) out.push(`-    ${patchLine(file, random)}`);
    for (let i = 0; i < plus; i++) out.push(`+    ${patchLine(file, random)}`);
    for (let i = 0; i < context; i++) out.push(`     ${patchLine(file, random)}`);
    spans.push([line - 1 + context, line - 1 + context + Math.max(plus, 1) - 1]);
    added += plus;
    removed += minus;
    line += between(random, 20, 120);
  }
  return { patch: out.join('\n'), added, removed, lines: spans };
}

function fill(template: string, file: GeneratedFile | null, random: Random): string {
  const nouns = file?.nouns ?? DOMAINS[pick(random, Object.keys(DOMAINS))]!;
  return template.replace(/\{(\w+)\}/g, (_m, slot: string) => {
    switch (slot) {
      case 'noun':
        return pick(random, nouns);
      case 'Noun':
        return capitalized(pick(random, nouns));
      case 'verb':
        return pick(random, VERBS);
      case 'adj':
        return pick(random, ADJECTIVES);
      case 'symbol':
        return file ? identifier(file, random) : pick(random, nouns);
      case 'file':
        return file?.path ?? 'the project';
      case 'problem':
        return pick(random, PROBLEMS);
      case 'n':
        return String(between(random, 2, 900));
      default:
        return slot;
    }
  });
}

const PROSE: Readonly<Record<Exclude<MemoryKind, 'diff'>, { titles: readonly string[]; bodies: readonly string[]; whys: readonly string[] }>> = {
  decision: {
    titles: [
      'Use optimistic locking for {noun} writes',
      '{symbol} reads {noun} rates from a cache instead of the database',
      'Move {noun} {verb} into a background job',
      'Keep {noun} ids as strings end to end',
      'Batch {noun} updates in groups of {n}',
      'Retry {verb} with exponential backoff and jitter',
      'Store {noun} amounts in minor units, never floats',
      'Split {symbol} so {noun} and {noun} are handled separately',
    ],
    bodies: [
      '{symbol} now goes through {Noun}Cache, so a {adj} {noun} is served for at most {n} seconds. The {noun} table is only read on a miss.',
      'We chose to {verb} {noun}s in {symbol} before they reach the {noun} queue. The alternative, doing it in the handler, duplicated the check in three places.',
      'After {problem}, {symbol} takes a lock per {noun} id and releases it in a finally block. Callers must not hold it across awaits of other {noun}s.',
      '{Noun} records are written once and never mutated; a correction is a new {noun} that points at the old one. {symbol} reads the latest.',
    ],
    whys: [
      'Because of {problem}: it showed up twice in production last quarter.',
      'The {noun} endpoint was the slowest in the p99 dashboard ({n} ms) and most of it was this lookup.',
      'Simpler to reason about than the previous {adj} {noun} handling, and the tests got shorter.',
      'The upstream {noun} API rate-limits bursts above {n} requests per minute.',
    ],
  },
  constraint: {
    titles: [
      'Never call the {noun} API outside {symbol}',
      'All SQL for {noun}s goes through query() with bound parameters',
      '{symbol} must stay idempotent: webhooks are delivered at least once',
      'Do not log {noun} secrets or full {noun} tokens',
      'Every {noun} write happens inside a transaction',
      'Public functions in {file} validate their input with the schema',
    ],
    bodies: [
      'Reviewers reject changes that {verb} {noun}s directly. {symbol} owns retries, metrics and the circuit breaker.',
      'Code that builds SQL strings by concatenation is a security finding; use the parameterised helper even for constants.',
      'A second call with the same {noun} id must return the first result. Tests in {file} cover it.',
    ],
    whys: ['Security review finding from the last audit.', 'Because of {problem}.', 'The on-call runbook assumes it.'],
  },
  gotcha: {
    titles: [
      '{symbol} returns null, not undefined, for a missing {noun}',
      '{symbol} silently drops {adj} {noun}s',
      'The {noun} fixture is shared between tests: reset it in afterEach',
      '{symbol} throws on an empty {noun} list instead of returning []',
      'Timeouts in {symbol} are in seconds, not milliseconds',
    ],
    bodies: [
      'Tripped over this while fixing {problem}: callers that check === undefined treat every missing {noun} as found.',
      'The {noun} adapter swallows the error and returns a {adj} value; check the logs for "{verb} {noun} failed".',
      'Running the {noun} tests in parallel fails about one time in {n} because of this.',
    ],
    whys: ['Cost an afternoon of debugging.', 'Found while investigating {problem}.', ''],
  },
  fact: {
    titles: [
      'The {noun} table is partitioned by month',
      '{Noun} ids are ULIDs generated by the client',
      '{symbol} is called from the {noun} worker every {n} seconds',
      'Staging uses a copy of production {noun}s from last Sunday',
      'The {noun} service has a hard limit of {n} items per request',
    ],
    bodies: [
      'Queries without a {noun} date range scan every partition and time out after {n} seconds.',
      '{symbol} is the only place that knows this; the rest of {file} assumes it.',
      'Confirmed with the {noun} team; documented in the runbook.',
    ],
    whys: ['', 'Asked twice in code review, so written down.'],
  },
  intent: {
    titles: ['Add {noun} metrics to {symbol}', 'Make {symbol} cancellable', 'Replace the {adj} {noun} cache', 'Fix {problem} in {symbol}', 'Paginate the {noun} list endpoint'],
    bodies: ['Plan: {verb} {noun}s first, then {verb} the {noun} index, then remove the {adj} path in {file}.', 'Started in this session; the tests for {symbol} are still failing.'],
    whys: ['', 'Asked for by the {noun} team.'],
  },
  note: {
    titles: ['{symbol}: see the design doc before changing', 'Benchmarks for {noun} {verb} live in bench/', 'TODO: {verb} {adj} {noun}s after the migration'],
    bodies: ['Context for whoever touches {file} next: the {noun} flow is {verb} → {verb} → {verb}.', '{Noun} numbers from the last run: p50 {n} µs.'],
    whys: [''],
  },
  summary: {
    titles: ['Consolidated {n} edits of {symbol}', 'Session summary: {verb} {noun}s and fix {problem}'],
    bodies: ['Earlier edits of {symbol} in {file}: {verb} {noun}, {verb} {noun}, and a fix for {problem}.', 'The agent changed {file} to {verb} {adj} {noun}s; tests pass.'],
    whys: [''],
  },
};

const KIND_SHARES: readonly (readonly [MemoryKind, number])[] = [
  ['diff', 0.62],
  ['decision', 0.07],
  ['constraint', 0.03],
  ['gotcha', 0.06],
  ['fact', 0.08],
  ['intent', 0.06],
  ['note', 0.05],
  ['summary', 0.03],
];

function kindFor(random: Random): MemoryKind {
  let roll = random();
  for (const [kind, share] of KIND_SHARES) {
    if ((roll -= share) < 0) return kind;
  }
  return 'note';
}

/** Agent sessions the generated memories come from. */
export const FIXTURE_SESSIONS = 400;

/** The id of the generator's `i`th agent session. */
export function fixtureSessionId(i: number): string {
  return `session-${String(i).padStart(4, '0')}-${(i * 2654435761).toString(16)}`;
}

export interface MemoryFixture {
  readonly files: readonly GeneratedFile[];
  /** Cumulative attention weights over `files`, for drawing a file the way memories do. */
  readonly fileWeights: readonly number[];
  readonly memories: Iterable<Memory>;
}

/**
 * `count` memories over `files`, newest `now`. A file's share of memories falls off with its rank
 * (1 / (rank + 10)): the hottest files have a few thousand, most have a few hundred.
 */
export function generateMemoryFixture(options: { memories: number; files: number; seed: number; now: number }): MemoryFixture {
  const files = generateFiles(options.files, options.seed);
  const weights: number[] = [];
  let total = 0;
  for (let rank = 0; rank < files.length; rank++) weights.push((total += 1 / (rank + 10)));
  const cumulative = weights.map((w) => w / total);
  const sessions = Array.from({ length: FIXTURE_SESSIONS }, (_, i) => fixtureSessionId(i));

  function* memories(): Generator<Memory> {
    const random = seededRandom(options.seed + 1);
    for (let i = 0; i < options.memories; i++) {
      const file = drawFile(files, cumulative, random());
      const kind = kindFor(random);
      // More of the recent past than of the distant one, as a project's memory accumulates.
      const createdAt = Math.round(options.now - 365 * DAY_MS * Math.pow(random(), 1.4));
      const updatedAt = random() < 0.2 ? Math.min(options.now, createdAt + Math.round(random() * 30 * DAY_MS)) : createdAt;
      const statusRoll = random();
      const status = statusRoll < 0.02 ? 'archived' : statusRoll < 0.03 ? 'forgotten' : 'active';
      const id = memoryId(createdAt, random);
      if (kind === 'diff') {
        const symbols = [...new Set(Array.from({ length: between(random, 0, 3) }, () => identifier(file, random)))].sort();
        const { patch, added, removed, lines } = patchFor(file, symbols, random);
        const source: MemorySource = pick(random, ['editor', 'editor', 'claude', 'claude', 'disk']);
        yield {
          id, kind, title: diffTitle('edited', file.path, symbols, added, removed), body: patch, why: null, source,
          sessionId: source === 'claude' ? pick(random, sessions) : null, sourceRef: null, createdAt, updatedAt,
          importance: source === 'claude' ? 0.45 : 0.35, pin: 'none', status, files: [file.path], symbols, anchor: null,
          meta: { change: 'edited', added, removed, truncated: false, lineEndingsOnly: false, lines, revisions: [] },
        };
        continue;
      }
      const prose = PROSE[kind];
      const scope = random();
      // Most memories are about one file; some span two; a few are about the whole project (and
      // few of those are rules: a project has dozens of project-wide constraints, not thousands).
      const about = scope < (kind === 'constraint' ? 0.015 : 0.08) ? null : file;
      const memoryFiles = about === null ? [] : scope > 0.9 ? [...new Set([file.path, drawFile(files, cumulative, random()).path])].sort() : [file.path];
      const symbols = about === null || random() < 0.35 ? [] : [...new Set(Array.from({ length: between(random, 1, 2) }, () => identifier(file, random)))].sort();
      const why = fill(pick(random, prose.whys), about, random);
      let pin: PinLevel = 'none';
      let anchor: Memory['anchor'] = null;
      let meta: Record<string, unknown> = {};
      if (kind === 'constraint') {
        const pinRoll = random();
        pin = pinRoll < 0.15 ? 'hard' : pinRoll < 0.3 ? 'soft' : 'none';
        if (about && pin !== 'none' && symbols.length && random() < 0.6) {
          const span = file.lines.get(symbols[0]!)!;
          anchor = { ...anchorLines(file.path, file.text, span.start, Math.min(span.end, span.start + 8)), stale: false };
        }
        if (about === null && random() < 0.5) meta = { glob: `${pick(random, ROOTS)}/${file.domain}/**/*.ts` };
      }
      yield {
        id, kind, title: fill(pick(random, prose.titles), about, random), body: fill(pick(random, prose.bodies), about, random), why: why || null,
        source: pick(random, ['claude', 'claude', 'user', 'mcp']) as MemorySource, sessionId: random() < 0.6 ? pick(random, sessions) : null, sourceRef: null,
        createdAt, updatedAt, importance: kind === 'constraint' ? 0.9 : Math.round((0.3 + random() * 0.5) * 100) / 100,
        pin, status, files: memoryFiles, symbols, anchor, meta,
      };
    }
  }
  return { files, fileWeights: cumulative, memories: { [Symbol.iterator]: memories } };
}

function drawFile(files: readonly GeneratedFile[], cumulative: readonly number[], roll: number): GeneratedFile {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < roll) lo = mid + 1;
    else hi = mid;
  }
  return files[lo]!;
}

/** What recall gets asked, in three shapes, drawn the way memories are (hot files more often). */
export type RecallMix = 'query only' | 'file + line + symbol' | 'file + query';

export interface GeneratedRequest {
  readonly mix: RecallMix;
  readonly query?: string;
  readonly file?: string;
  readonly line?: number;
  readonly symbol?: string;
}

const QUESTION_WORDS = ['why', 'how', 'where', 'does', 'should', 'when', 'what', 'is', 'the', 'for', 'in', 'with', 'not', 'after'];

/** A 3–10 word query in the project's vocabulary: nouns, verbs, adjectives, identifiers and a few question words. */
export function generateQuery(file: GeneratedFile, random: Random): string {
  const words: string[] = [];
  for (let n = between(random, 3, 10); words.length < n; ) {
    const roll = random();
    if (roll < 0.3) words.push(pick(random, file.nouns));
    else if (roll < 0.5) words.push(pick(random, VERBS));
    else if (roll < 0.62) words.push(pick(random, ADJECTIVES));
    else if (roll < 0.75) words.push(identifier(file, random).split('.').pop()!);
    else words.push(pick(random, QUESTION_WORDS));
  }
  return words.join(' ');
}

export function generateRequests(fixture: MemoryFixture, count: number, mix: RecallMix, seed: number): GeneratedRequest[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const file = drawFile(fixture.files, fixture.fileWeights, random());
    if (mix === 'query only') return { mix, query: generateQuery(file, random) };
    if (mix === 'file + query') return { mix, file: file.path, query: generateQuery(file, random) };
    const symbol = pick(random, file.symbols);
    const span = file.lines.get(symbol)!;
    return { mix, file: file.path, line: between(random, span.start, span.end), symbol };
  });
}

/** The hottest file of a language: the one with the most memories. */
export function hottestFile(fixture: MemoryFixture, language: FileLanguage): GeneratedFile {
  return fixture.files.find((f) => f.language === language)!;
}
