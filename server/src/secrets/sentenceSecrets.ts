import type { FoundSecret } from './secretRules';
import { characterClasses, holdsDrawnRun, isHighEntropy, isPlaceholderValue, looksGenerated, namesASecret, readsAsWords, saidNotToBe } from './secretValues';

/**
 * Secrets told in conversation further from their word than proseSecrets.ts reads: a value
 * drawn at random later in the sentence that names a token or a key (`the auth token got rotated —
 * the one in our .env is `…``, `mine is …`), and an answer to a question about a password
 * (`what's the password for the Figma viewer?` then `it's …`), and a value a later line points up at (`^ new API key`).
 */

/**
 * A secret's word, whole (a key only as an API's, a service's or an access key: `public key: …` is none), then within the line `is`, `was` or a colon, then the value, perhaps in a code
 * span (reStructuredText's double backticks too).
 */
const LATER_IN_SENTENCE =
  /(?:token|secret|api[ _-]?key|apikey|password|passwd|(?:service|access|secret|auth|license) key)(?<![A-Za-z0-9](?:token|secret|api[ _-]?key|apikey|password|passwd|(?:service|access|secret|auth|license) key))s?(?![A-Za-z])[^\r\n]{0,80}?(?:[ \t](?:is|was)|:)[ \t]{1,4}(`{0,2})([A-Za-z0-9_+/=.-]{16,200})\1(?![\w+/=-])/dgi;

/** A question naming a password, and the next lines' answer: `it's …`, `use …`, `try …` (a chat's name before it). */
const ANSWER =
  /(?:password|passwd|passphrase|pw|pwd|pin|creds|login)(?<![A-Za-z](?:password|passwd|passphrase|pw|pwd|pin|creds|login))[^\r\n]{0,200}\?[ \t]*\r?\n(?:[ \t>]*\r?\n){0,2}[ \t>]*(?:[\w. -]{1,30}:[ \t]*)?(?:it['’]s|it is|use|try|just use)[ \t]{1,4}[`"']?([^\s`"',;]{4,100})/dgi;

/** A secret's word, then its drawn value in a code span a few words on, perhaps in parentheses: ``the secret access key you provided (`…`)``. */
const NAMED_SPAN =
  /(?:token|secret|api[ _-]?key|access key|password|passwd)(?<![A-Za-z0-9](?:token|secret|api[ _-]?key|access key|password|passwd))s?(?![A-Za-z])[^\r\n`]{0,60}?[ \t]\(?`([A-Za-z0-9_+/=.-]{16,200})`/dgi;

/** A password reset, then what it became: ``reset the admin password with `…` — the new one is `…` ``. */
const NEW_ONE = /(?:password|passwd|passphrase)(?<![A-Za-z](?:password|passwd|passphrase))[^\r\n]{0,160}?(?:the new one|new password|it) (?:is|was)[ \t]{1,2}`([^`\s]{6,64})`/dgi;

/** A line pointing up at the one above that names a secret (`^ new HEX_API_KEY for the org`). */
const POINTING_UP = /^[ \t]*\^[^\r\n]{0,80}?(?:key|token|secret|password|passwd)/i;

/** The drawn value that ends the line above a line pointing up at it: `53426a1d…` then `^ new HEX_API_KEY`. */
function pointedAt(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  for (let caret = text.indexOf('^'); caret !== -1; caret = text.indexOf('^', caret + 1)) {
    // Only a caret that starts its line (after spaces): found by looking back over those alone.
    let before = caret - 1;
    while (before >= 0 && (text[before] === ' ' || text[before] === '\t')) before--;
    if (before < 1 || text[before] !== '\n' || !POINTING_UP.test(text.slice(before + 1, before + 121))) continue;
    // The end of the line above, its last 300 characters at most.
    const aboveEnd = text[before - 1] === '\r' ? before - 1 : before;
    const aboveStart = Math.max(text.lastIndexOf('\n', aboveEnd - 1) + 1, aboveEnd - 300);
    const above = text.slice(aboveStart, aboveEnd);
    const word = /([A-Za-z0-9_+/=.-]{16,200})[ \t]*$/.exec(above);
    if (!word || !drawn(word[1]!, true) || (word.index > 0 && !/[\s:]/.test(above[word.index - 1]!))) continue;
    found.push({ start: aboveStart + word.index, end: aboveStart + word.index + word[1]!.length });
  }
  return found;
}

/** Keywords other rules already scan for: each new one slows the scan every text gets (secretPatterns.ts). */
export const SENTENCE_KEYWORDS = ['token', 'secret', 'key', 'pass', 'pw', 'cred', 'login'];

/**
 * Drawn, not written: capitals, small letters and digits mixed; or hex digits in a code span, of a
 * length no commit's or digest's hash has (40 and 64 are Git's and SHA-256's).
 */
function drawn(value: string, inCodeSpan: boolean): boolean {
  // Words run together are an identifier (`RequestContextV2`, `JsonWebTokenAlgorithms.ES256`), whatever their digits.
  if (isPlaceholderValue(value) || namesASecret(value) || !isHighEntropy(value) || readsAsWords(value)) return false;
  if (/^[0-9a-f]+$/.test(value)) return inCodeSpan && value.length >= 24 && value.length !== 40 && value.length !== 64;
  return /[A-Z]/.test(value) && /[a-z]/.test(value) && /[0-9]/.test(value) && looksGenerated(value);
}

/** Chosen (three kinds of character, eight or more) or drawn. */
function chosen(value: string): boolean {
  return !isPlaceholderValue(value) && !namesASecret(value) && ((value.length >= 8 && characterClasses(value) >= 3) || looksGenerated(value));
}

export function findSentenceSecrets(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  LATER_IN_SENTENCE.lastIndex = holdsDrawnRun(text) ? 0 : text.length;
  for (let match = LATER_IN_SENTENCE.exec(text); match; match = LATER_IN_SENTENCE.exec(text)) {
    // A value cut short for display (`ops_eyJzaWdu..[Redacted]`) is not the secret.
    if (match[2]!.endsWith('..') || saidNotToBe(text, match.index)) continue;
    const value = match[2]!.replace(/[.]+$/, '');
    const [start] = match.indices![2]!;
    if (drawn(value, match[1] !== '')) found.push({ start, end: start + value.length });
  }
  found.push(...pointedAt(text));
  NAMED_SPAN.lastIndex = text.includes('`') ? 0 : text.length;
  for (let match = NAMED_SPAN.exec(text); match; match = NAMED_SPAN.exec(text)) {
    const [start, end] = match.indices![1]!;
    if (drawn(match[1]!, true) && !saidNotToBe(text, match.index)) found.push({ start, end });
  }
  NEW_ONE.lastIndex = text.includes('`') ? 0 : text.length;
  for (let match = NEW_ONE.exec(text); match; match = NEW_ONE.exec(text)) {
    const [start, end] = match.indices![1]!;
    if (chosen(match[1]!)) found.push({ start, end });
  }
  ANSWER.lastIndex = text.includes('?') ? 0 : text.length;
  for (let match = ANSWER.exec(text); match; match = ANSWER.exec(text)) {
    const value = match[1]!.replace(/[.!?:]+$/, '');
    const [start] = match.indices![1]!;
    if (chosen(value)) found.push({ start, end: start + value.length });
  }
  return found;
}
