import type { Memory } from '../memory/types';
import {
  isPlaceholderValue,
  isSensitiveKeyName,
  SECRET_RULES,
  USER_PATTERN_RULE_ID,
  type PatternRule,
  type SecretRule,
  type SecretSpan,
} from './secretRules';

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

function patternSpans(rule: PatternRule, text: string): SecretSpan[] {
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
    if (rule.accept && !rule.accept(text.slice(start, end), text, { start, end })) continue;
    spans.push({ start, end });
  }
  return spans;
}

function ruleSpans(rule: SecretRule, text: string): SecretSpan[] {
  return 'find' in rule ? rule.find(text) : patternSpans(rule, text);
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
  SECRET_RULES.forEach((rule, priority) => {
    for (const { start, end } of ruleSpans(rule, text)) candidates.push({ start, end, priority, rule: rule.id });
  });
  for (const userPattern of userPatterns) {
    const pattern = userPattern.global ? userPattern : new RegExp(userPattern.source, `${userPattern.flags}g`);
    const rule: PatternRule = { id: USER_PATTERN_RULE_ID, pattern };
    for (const { start, end } of patternSpans(rule, text)) candidates.push({ start, end, priority: SECRET_RULES.length, rule: rule.id });
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

  /** A value stored under a key such as `apiKey` or `password` is a secret even without context. */
  private keyedValue(key: string, value: string): string {
    if (isSensitiveKeyName(key) && !isPlaceholderValue(value)) return '[REDACTED:generic-assignment]';
    return this.text(value);
  }

  private json(value: unknown, key = ''): unknown {
    if (typeof value === 'string') return this.keyedValue(key, value);
    if (Array.isArray(value)) return value.map((item) => this.json(item, key));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.text(k), this.json(v, k)]));
    }
    return value;
  }

  /** Redaction can reorder or merge tags, and the store keeps them sorted and unique. */
  private sortedSet(values: readonly string[]): string[] {
    return [...new Set(values.map((v) => this.text(v)))].sort();
  }
}

