import type { Memory } from '../memory/types';
import {
  SECRET_RULES,
  USER_PATTERN_RULE_ID,
  type FoundSecret,
  type PatternRule,
  type SecretRule,
  type SecretSpan,
} from './secretRules';
import { joinContinuedLines } from './continuedLines';
import { recordGateScan } from './secretPatterns';
import { holdsGeneratedSecret, holdsSecret } from './keyNames';
import { isFilledIn, isHighEntropy, isPlaceholderToken, isPlaceholderValue, namesASecret } from './secretValues';
import { forEachRun, isTokenRunCharacter } from './sampledRuns';
import { TOKEN_RULES } from './tokenRules';

export interface Redaction {
  readonly rule: string;
  readonly start: number;
  readonly end: number;
}

/** `text` with every secret replaced by `[REDACTED:<rule>]`; positions refer to the input text. */
export interface RedactionResult {
  readonly text: string;
  readonly redactions: readonly Redaction[];
}

interface Candidate extends SecretSpan {
  readonly priority: number;
  readonly rule: string;
}

function patternSpans(rule: Pick<PatternRule, 'pattern' | 'accept'>, text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  const pattern = rule.pattern;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    const groups = match.indices ?? [];
    let span: readonly [number, number] = [match.index, match.index + match[0].length];
    for (let i = 1; i < groups.length; i++) {
      const group = groups[i];
      if (group) {
        span = group;
        break;
      }
    }
    const [start, end] = span;
    if (rule.accept && !rule.accept(text.slice(start, end), text, { start, end }, match.index)) {
      // A rejected match must not hide one that starts inside it: `secret: password = "…"`.
      pattern.lastIndex = match.index + 1;
      continue;
    }
    spans.push({ start, end });
  }
  return spans;
}

/** Rules that find a token by its shape alone, whose hand-filled placeholders (`glpat-XXXX…`) are not secrets. */
const SHAPE_RULE_IDS = new Set(['gcp-service-account-key', 'prefixed-token', ...TOKEN_RULES.map((rule) => rule.id)]);

function ruleSpans(rule: SecretRule, text: string): FoundSecret[] {
  const spans = 'find' in rule ? rule.find(text) : patternSpans(rule, text);
  if (spans.length === 0) return spans;
  const placeholder = SHAPE_RULE_IDS.has(rule.id) ? isPlaceholderToken : isFilledIn;
  return spans.filter(({ start, end }) => !placeholder(text.slice(start, end)));
}

interface RankedRule {
  readonly rule: SecretRule;
  /** Its place in SECRET_RULES: the earlier rule names a redaction when spans overlap. */
  readonly priority: number;
}

const KEYWORD_RULES = SECRET_RULES.flatMap((rule, priority) => ('keywords' in rule.gate ? [{ rule, priority, keywords: rule.gate.keywords }] : []));
const TOKEN_RUN_RULES = SECRET_RULES.flatMap((rule, priority) => ('tokenRun' in rule.gate ? [{ rule, priority, tokenRun: rule.gate.tokenRun }] : []));
const SHORTEST_TOKEN_RUN = Math.min(...TOKEN_RUN_RULES.map((r) => r.tokenRun));
const CHARACTER_RULES = SECRET_RULES.flatMap((rule, priority) => ('characters' in rule.gate ? [{ rule, priority, characters: [...rule.gate.characters] }] : []));

/** Every rule's keywords, longest first: where several start at one place, a scan reports the longest. */
const KEYWORDS = [...new Set(KEYWORD_RULES.flatMap((r) => r.keywords))].sort((a, b) => b.length - a.length);
const KEYWORD_SCAN = new RegExp(KEYWORDS.map((keyword) => keyword.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g');
/**
 * The rules a keyword found opens: those of every keyword it begins with, itself included (all
 * of them start where it was found).
 */
const RULES_OPENED_BY = new Map(
  KEYWORDS.map((keyword) => [keyword, KEYWORD_RULES.filter((r) => r.keywords.some((k) => keyword.startsWith(k)))] as const),
);
/** Which rules a scan has opened: the scan's number at each rule's priority. */
const OPENED_IN_SCAN = new Float64Array(SECRET_RULES.length);
let scans = 0;

/**
 * The keyword rules a lowercased text opens, in one scan, pushed onto `open`; where a keyword
 * that starts with `key`, `pat` or `cred` was found goes to `keyOrPat` (see GateScan).
 */
function keywordRulesIn(lower: string, open: RankedRule[], keyOrPat: number[]): void {
  const scan = ++scans;
  KEYWORD_SCAN.lastIndex = 0;
  for (let match = KEYWORD_SCAN.exec(lower); match; match = KEYWORD_SCAN.exec(lower)) {
    if (match[0].startsWith('key') || match[0].startsWith('pat') || match[0].startsWith('cred')) keyOrPat.push(match.index);
    for (const r of RULES_OPENED_BY.get(match[0])!) {
      if (OPENED_IN_SCAN[r.priority] === scan) continue;
      OPENED_IN_SCAN[r.priority] = scan;
      open.push(r);
    }
    // A keyword may start inside the one just found.
    KEYWORD_SCAN.lastIndex = match.index + 1;
  }
}

/** The longest run of [A-Za-z0-9_-] in `text` when it is at least `min` long (else 0). */
function longestTokenRun(text: string, min: number): number {
  let longest = 0;
  forEachRun(text, min, isTokenRunCharacter, (start, end) => {
    longest = Math.max(longest, end - start);
  });
  return longest;
}

/** The rules whose gates (secretRules.ts) `text` opens, in priority order: the others cannot match it. */
function rulesFor(text: string): RankedRule[] {
  const open: RankedRule[] = [];
  const lower = text.toLowerCase();
  const keyOrPat: number[] = [];
  keywordRulesIn(lower, open, keyOrPat);
  recordGateScan({ text, lower, keyOrPat });
  if (text.length >= SHORTEST_TOKEN_RUN) {
    const run = longestTokenRun(text, SHORTEST_TOKEN_RUN);
    for (const r of TOKEN_RUN_RULES) if (run >= r.tokenRun) open.push(r);
  }
  // A character outside ASCII is answered at once for a string V8 stores as one byte a character (most text); others by a native scan.
  for (const r of CHARACTER_RULES) if (r.characters.some((c) => text.includes(c))) open.push(r);
  return open.length > 1 ? open.sort((a, b) => a.priority - b.priority) : open;
}

/** Overlapping spans become one, so no part of any secret survives; the most specific rule names it. */
function mergeSpans(candidates: Candidate[]): Redaction[] {
  candidates.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Redaction[] = [];
  let current: Candidate | undefined;
  for (const next of candidates) {
    if (current && next.start < current.end) {
      const better = next.priority < current.priority ? next : current;
      current = { start: current.start, end: Math.max(current.end, next.end), priority: better.priority, rule: better.rule };
      continue;
    }
    if (current) merged.push({ rule: current.rule, start: current.start, end: current.end });
    current = next;
  }
  if (current) merged.push({ rule: current.rule, start: current.start, end: current.end });
  return merged;
}

/**
 * Replaces every secret in `text` (see secretRules.ts) and every match of the user's own
 * patterns with `[REDACTED:<rule>]`, keeping the key names and URLs around them readable.
 */
export function redactSecrets(text: string, userPatterns: readonly RegExp[] = []): RedactionResult {
  const candidates: Candidate[] = [];
  for (const { rule, priority } of rulesFor(text)) {
    for (const found of ruleSpans(rule, text)) candidates.push({ start: found.start, end: found.end, priority, rule: found.rule ?? rule.id });
  }
  // The same rules over the lines joined as their program reads them; a span there is redacted here.
  for (const joined of joinContinuedLines(text)) {
    for (const { rule, priority } of rulesFor(joined.text)) {
      for (const found of ruleSpans(rule, joined.text)) {
        candidates.push({ start: joined.original(found.start), end: joined.original(found.end - 1) + 1, priority, rule: found.rule ?? rule.id });
      }
    }
  }
  for (const userPattern of userPatterns) {
    const pattern = userPattern.global ? userPattern : new RegExp(userPattern.source, `${userPattern.flags}g`);
    for (const { start, end } of patternSpans({ pattern }, text)) candidates.push({ start, end, priority: SECRET_RULES.length, rule: USER_PATTERN_RULE_ID });
  }
  if (candidates.length === 0) return { text, redactions: [] };

  const redactions = mergeSpans(candidates);
  const parts: string[] = [];
  let copied = 0;
  for (const { rule, start, end } of redactions) {
    parts.push(text.slice(copied, start), `[REDACTED:${rule}]`);
    copied = end;
  }
  parts.push(text.slice(copied));
  return { text: parts.join(''), redactions };
}

/** Compiles the user's extra patterns from settings; a pattern that cannot be used becomes a message. */
export function compileUserPatterns(patterns: readonly string[]): { patterns: RegExp[]; errors: string[] } {
  const compiled: RegExp[] = [];
  const errors: string[] = [];
  for (const source of patterns) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(source, 'g');
    } catch (error) {
      errors.push(`Ignoring redaction pattern ${JSON.stringify(source)}: ${(error as Error).message}`);
      continue;
    }
    if (pattern.test('')) {
      errors.push(`Ignoring redaction pattern ${JSON.stringify(source)}: it matches empty text, so it would find nothing useful.`);
      continue;
    }
    pattern.lastIndex = 0;
    compiled.push(pattern);
  }
  return { patterns: compiled, errors };
}

/** Redaction with the built-in rules plus a user's own patterns (`engram.redact.patterns`). */
export class Redactor {
  constructor(readonly userPatterns: readonly RegExp[] = []) {}

  text(text: string): string {
    return redactSecrets(text, this.userPatterns).text;
  }

  /** The memory as it may be stored: every piece of text it carries, with secrets redacted. */
  memory(memory: Memory): Memory {
    return {
      ...memory,
      title: this.text(memory.title),
      body: this.text(memory.body),
      why: memory.why === null ? null : this.text(memory.why),
      files: this.sortedSet(memory.files),
      symbols: this.sortedSet(memory.symbols),
      anchor: memory.anchor && {
        ...memory.anchor,
        path: this.text(memory.anchor.path),
        contextBefore: this.text(memory.anchor.contextBefore),
        contextAfter: this.text(memory.anchor.contextAfter),
      },
      meta: this.json(memory.meta) as Record<string, unknown>,
    };
  }

  /**
   * JSON text with every string in it, keys included, redacted (a value under a key such as
   * `password` whole); the very same text when nothing is. Text that is not JSON is redacted as text.
   */
  jsonText(json: string): string {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      return this.text(json);
    }
    const redacted = this.json(value);
    return redacted === value ? json : JSON.stringify(redacted);
  }

  /**
   * A value stored under a key such as `apiKey` or `password` is a secret even without context;
   * one under `token_type` is not; one under `encryption_key` is when it looks generated.
   */
  private keyedValue(key: string, value: string): string {
    if (holdsSecret(key) && !isPlaceholderValue(value) && !namesASecret(value)) return '[REDACTED:generic-assignment]';
    if (/(?:key|pat|creds|credentials)[0-9]*$/i.test(key) && holdsGeneratedSecret(key) && isHighEntropy(value)) return '[REDACTED:generic-assignment]';
    return this.text(value);
  }

  /** The value itself when nothing in it is redacted (most meta): callers tell a change by identity. */
  private json(value: unknown, key = ''): unknown {
    if (typeof value === 'string') return this.keyedValue(key, value);
    if (Array.isArray(value)) {
      const items = value.map((item) => this.json(item, key));
      return items.every((item, i) => item === value[i]) ? value : items;
    }
    if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      const redacted = entries.map(([k, v]) => [this.text(k), this.json(v, k)] as const);
      return redacted.every(([k, v], i) => k === entries[i]![0] && v === entries[i]![1]) ? value : Object.fromEntries(redacted);
    }
    return value;
  }

  /** Redaction can reorder or merge tags, and the store keeps them sorted and unique. */
  private sortedSet(values: readonly string[]): string[] {
    return [...new Set(values.map((v) => this.text(v)))].sort();
  }
}

