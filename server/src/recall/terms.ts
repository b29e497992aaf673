import { identifierParts } from '../memory/identifierParts';
import { ftsQueryOf } from '../store/ftsQuery';

/**
 * English function words that say nothing about a topic: articles, auxiliaries, pronouns,
 * question words, modals, a few prepositions, and the stubs contractions leave (`don't` → `don`).
 * Deliberately short: words that mean something in code (`if`, `for`, `while`, `in`, `on`,
 * `not`, `no`, `all`, `new`, `this`, `return`, `null`, `true`, `default`, `type`…) are kept.
 * Measured on LoCoMo: docs/recall-quality.md.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  `a an the and or but nor of to at by with from as about into
  is are was were be been being am do does did doing have has had having
  i me my mine you your yours he him his she her hers it its we us our ours they them their theirs that these those
  what which who whom whose when where why how can could would should will shall might must just so than then there here
  don didn doesn isn aren wasn weren hasn haven hadn won wouldn couldn shouldn ll ve re`
    .split(/\s+/)
    .filter(Boolean),
);

const MAX_TERMS = 64;

// The same words either way; a Unicode property regex costs a short command ~1 ms to compile.
const ASCII_WORD = /[A-Za-z0-9_]+/g;
const UNICODE_WORD = /[\p{L}\p{N}_]+/gu;

function isAscii(text: string): boolean {
  return /^[\x00-\x7F]*$/.test(text);
}

/** A letter or digit, in any script. */
export function isWordCharacter(character: string): boolean {
  const code = character.charCodeAt(0);
  if (code < 0x80) return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return /[\p{L}\p{N}]/u.test(character);
}

/**
 * The words of a text worth searching for: lowercased, at least two characters (or a digit),
 * identifier parts added (`parseConfig` → `parse`, `config`), function words left out — unless
 * nothing else is left, so "what is this" still finds something.
 */
export function queryTerms(text: string): string[] {
  const all = new Set<string>();
  const content = new Set<string>();
  for (const word of text.match(isAscii(text) ? ASCII_WORD : UNICODE_WORD) ?? []) {
    // Split before lowercasing: the case boundaries are what mark `parseConfig`'s parts.
    const candidates = [...(word.length > 1 || /\d/.test(word) ? [word.toLowerCase()] : []), ...identifierParts(word)];
    for (const candidate of candidates) {
      all.add(candidate);
      if (!STOP_WORDS.has(candidate)) content.add(candidate);
    }
    if (content.size >= MAX_TERMS) break;
  }
  return [...(content.size ? content : all)].slice(0, MAX_TERMS);
}

/** Turns free text into a safe FTS5 query: every term quoted, OR-ed; null when nothing is left. */
export function toFtsQuery(text: string): string | null {
  const terms = queryTerms(text);
  return terms.length ? ftsQueryOf(terms, 'OR') : null;
}
