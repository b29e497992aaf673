import { forEachRun } from './sampledRuns';
import type { FoundSecret } from './secretRules';
import { countsUp, entropy, isPlaceholderValue, readsAsWords } from './secretValues';

/**
 * Values drawn at random that no key name, prefix or command marks: a quoted string that is all
 * base64 or all hex and reads as drawn (detect-secrets' high-entropy strings), and an AWS secret
 * key's shape, 40 base64 characters, alone as a call's argument (`some_function(…)`).
 *
 * What tells such a value from data: a name before it (`"CanonicalUser": "…"`, `sha = "…"`: a
 * named value is the keyed rules' to judge, by its name), a statement that says what it is (a
 * hash, digest, checksum, commit…), git's object names (40 or 64 hex digits), base64 that decodes to
 * text, and letters that read as words (paths, identifiers).
 */

/** The shortest value taken: 32 characters (an MD5-length hex key; base64 this long is ~4.6 bits a character). */
const MIN_LENGTH = 32;
const MAX_LENGTH = 1000;
/** An AWS secret access key: 40 characters of standard base64, no padding. */
const AWS_SECRET_LENGTH = 40;
/** git's object names: a commit, tree or blob id in SHA-1 or SHA-256 repositories. */
const GIT_OBJECT_LENGTHS = new Set([40, 64]);
/**
 * Shannon entropy, bits a character: detect-secrets' 3.0 for hex; for base64 4.2, which 99% of
 * drawn values of 32 characters pass (~4.6 is their median; 40 characters, ~4.8) and words and
 * identifiers of that length do not (~3.5–4.0).
 */
const HEX_ENTROPY = 3.0;
const BASE64_ENTROPY = 4.2;

/** [A-Za-z0-9+/=_-], standard and URL-safe base64 and its padding, by character code. */
const BASE64_CHARACTER = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-') BASE64_CHARACTER[c.charCodeAt(0)] = 1;
const isBase64Character = (c: number) => c < 128 && BASE64_CHARACTER[c] === 1;

/**
 * Words a statement uses for a value it holds that is a digest, an identifier or a public key, not
 * a credential, as words of a name (`sha256base64`, `expectedDigest`, `GIT_COMMIT`, a Push API
 * `applicationServerKey`).
 */
const DATA_WORD = new RegExp(
  ['sha', 'md5', 'hash', 'hashes', 'checksum', 'checksums', 'digest', 'digests', 'etag', 'integrity', 'commit', 'commits', 'revision', 'rev', 'fingerprint', 'uuid', 'guid', 'oid', 'hex', 'public', 'vapid', 'applicationServerKey']
    .flatMap((word) => [
      `(?<![a-z])${word}(?:[0-9]+|(?![a-z]))`,
      `${word[0]!.toUpperCase()}${word.slice(1)}(?:[0-9]+|(?![a-z]))`,
      `(?<![A-Z])${word.toUpperCase()}(?:[0-9]+|(?![A-Z]))`,
    ])
    // HTTP's `ETag` header, as written.
    .concat('ETag(?![a-z])')
    .join('|'),
  'g',
);

const CONTEXT_SIDE = 300;

/** Where the statement around `at` starts: after a `;` or a blank line, 300 characters back at most. */
function statementStart(text: string, at: number): number {
  let blankLine = false;
  for (let i = at - 1; i >= 0 && at - i <= CONTEXT_SIDE; i--) {
    const c = text[i];
    if (c === ';') return i + 1;
    if (c === '\n') {
      if (blankLine) return i + 1;
      blankLine = true;
    } else if (c !== ' ' && c !== '\t' && c !== '\r') blankLine = false;
  }
  return Math.max(0, at - CONTEXT_SIDE);
}

function lineEnd(text: string, at: number): number {
  let end = at;
  while (end < text.length && end - at < CONTEXT_SIDE && text[end] !== '\n') end++;
  return end;
}

/**
 * Where a text names a digest or an id, found once for all its candidates; whether the statement
 * around a value (back to a `;` or a blank line, on to the end of its line) holds one of them:
 * `expect(sha256(body)).toBe(` then `"…"` on the next line, `Buffer.from('…', 'hex')`. One on an
 * earlier line that names its own value there is that value's.
 */
function dataWordsOf(text: string): (at: number) => boolean {
  let positions: number[] | undefined;
  return (at) => {
    if (!positions) {
      positions = [];
      DATA_WORD.lastIndex = 0;
      for (let word = DATA_WORD.exec(text); word; word = DATA_WORD.exec(text)) positions.push(word.index);
    }
    const from = statementStart(text, at);
    const to = lineEnd(text, at);
    // The first word at or after `from`, by bisection.
    let low = 0;
    let high = positions.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (positions[middle]! < from) low = middle + 1;
      else high = middle;
    }
    for (let i = low; i < positions.length && positions[i]! < to; i++) if (!holdsOwnValue(text, positions[i]!, at)) return true;
    return false;
  };
}

/**
 * Whether the data word at `word`, on a line before the value at `at`, names that line's own value
 * (`# public key: age1…`, `sha256: …`): then it says nothing of the values on the lines after it.
 */
function holdsOwnValue(text: string, word: number, at: number): boolean {
  const end = text.indexOf('\n', word);
  if (end < 0 || end >= at) return false;
  return /^[\w -]{0,40}[:=][ \t]*\S/.test(text.slice(word, end));
}

/**
 * Whether a name and an operator come before the quote at `quote` (`key = '…'`, `key => "…"`,
 * `"key": "…"`, `'etag': '"…"'`, `  key: "…"`): a name holds a letter, so a label such as
 * `String #2: "…"` is none. Before a bare `:` the name must be quoted or start a line or an
 * entry (after `{`, `,`, `(` or `[`): in a sentence (`it works: '…'`) the word is no key.
 */
function isNamed(text: string, quote: number): boolean {
  let at = quote - 1;
  if (text[at] === '"' || text[at] === "'") at--;
  while (at >= 0 && (text[at] === ' ' || text[at] === '\t')) at--;
  if (text[at] !== '=' && text[at] !== ':' && text[at] !== '>') return false;
  const colonOnly = text[at] === ':' && !'=:>!<'.includes(text[at - 1] ?? '');
  while (at >= 0 && '=:>!<'.includes(text[at]!)) at--;
  while (at >= 0 && (text[at] === ' ' || text[at] === '\t')) at--;
  const quotedName = text[at] === '"' || text[at] === "'";
  while (at >= 0 && (text[at] === '"' || text[at] === "'" || text[at] === ']')) at--;
  let nameStart = at;
  while (nameStart >= 0 && quote - nameStart < 100 && /[\w.$-]/.test(text[nameStart]!)) nameStart--;
  if (!/[A-Za-z]/.test(text.slice(nameStart + 1, at + 1))) return false;
  if (!colonOnly || quotedName) return true;
  while (nameStart >= 0 && (text[nameStart] === ' ' || text[nameStart] === '\t')) nameStart--;
  return nameStart < 0 || '\n{,(['.includes(text[nameStart]!) || (text[nameStart] === '-' && (nameStart === 0 || /\s/.test(text[nameStart - 1]!)));
}

/** A quoted value followed by `:` is a key (a JSON object's, `"c_must_be_followed_by_an_ASCII_letter_1512": …`). */
function isKey(text: string, after: number): boolean {
  while (text[after] === ' ' || text[after] === '\t') after++;
  return text[after] === ':';
}

/** A token's kind written before it (`pk_live_…`, `whsec_…`): a shape's own rule judges it, and a publishable key is none. */
const TOKEN_KIND = /^[a-z]{2,10}[_-]/;

/**
 * The first argument of a browser analytics snippet: Segment's write key (`analytics.load("…")`), Mixpanel's project
 * token, Amplitude's API key, Heap's app id, PostHog's project key. Each only sends events, and every page that loads
 * the snippet shows it.
 */
const BROWSER_ANALYTICS_KEY = /(?:analytics\.load|mixpanel\.init|amplitude(?:\.getInstance\(\))?\.init|heap\.load|posthog\.init)\([ \t]{0,4}$/;

/** An experiment tracker's run or experiment id given to its lookup: MLflow's `get_run("<32 hex>")`, `delete_experiment("…")`. */
const RUN_ID_CALL = /(?:get|delete|restore)_(?:run|experiment)\([ \t]{0,4}$/;

/** Base64 of text (`c3VwZXIgc2VjcmV0IHZhbHVl` is `super secret value`): an encoding of words, not a key. */
function decodesToText(value: string): boolean {
  const bytes = Buffer.from(value, 'base64');
  let printable = 0;
  for (const byte of bytes) if ((byte >= 32 && byte < 127) || byte === 9 || byte === 10 || byte === 13) printable++;
  return bytes.length > 0 && printable >= bytes.length * 0.9;
}

/** A run of hex digits, letters and digits both, that is not a git object name. */
function isDrawnHex(value: string): boolean {
  return (
    /^[0-9a-fA-F]+$/.test(value) &&
    !GIT_OBJECT_LENGTHS.has(value.length) &&
    /[0-9]/.test(value) &&
    /[a-fA-F]/.test(value) &&
    entropy(value) >= HEX_ENTROPY &&
    !countsUp(value.toLowerCase(), 7)
  );
}

/** Base64 (standard or URL-safe, not both), capitals, small letters and digits, high in entropy, not words or encoded text. */
function isDrawnBase64(value: string): boolean {
  return (
    /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) &&
    !(/[+/]/.test(value) && /[_-]/.test(value)) &&
    /[A-Z]/.test(value) &&
    /[a-z]/.test(value) &&
    /[0-9]/.test(value) &&
    entropy(value) >= BASE64_ENTROPY &&
    !countsUp(value.toLowerCase(), 7) &&
    !readsAsWords(value) &&
    !decodesToText(value)
  );
}

/** What stands beside a call's argument, spaces skipped: `(` or `,` before, `)` or `,` after. */
function isArgument(text: string, start: number, end: number): boolean {
  let before = start - 1;
  while (before >= 0 && text[before] === ' ') before--;
  let after = end;
  while (after < text.length && text[after] === ' ') after++;
  return (text[before] === '(' || text[before] === ',') && (text[after] === ')' || text[after] === ',');
}

function bareToken(text: string, start: number, end: number, namesData: (at: number) => boolean): FoundSecret | null {
  const length = end - start;
  const quote = text[start - 1];
  if ((quote === '"' || quote === "'") && text[end] === quote) {
    if (length < MIN_LENGTH || isNamed(text, start - 1) || isKey(text, end + 1)) return null;
    const value = text.slice(start, end);
    if (!isDrawnHex(value) && (/^[0-9a-fA-F]+$/.test(value) || !isDrawnBase64(value))) return null;
    const before = text.slice(Math.max(0, start - 60), start - 1);
    if (TOKEN_KIND.test(value) || isPlaceholderValue(value) || namesData(start) || BROWSER_ANALYTICS_KEY.test(before) || RUN_ID_CALL.test(before)) return null;
    return { start, end, rule: 'high-entropy-string' };
  }
  if (length !== AWS_SECRET_LENGTH || !isArgument(text, start, end)) return null;
  const value = text.slice(start, end);
  if (!/^[A-Za-z0-9+/]+$/.test(value) || !isDrawnBase64(value) || isPlaceholderValue(value) || namesData(start)) return null;
  return { start, end, rule: 'aws-secret-access-key' };
}

/**
 * Runs of base64 characters MIN_LENGTH long or more cover one of every MIN_LENGTH characters,
 * so only those are looked at (as the token gate does), and the runs through them measured.
 */
export function findBareTokens(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  const namesData = dataWordsOf(text);
  forEachRun(text, MIN_LENGTH, isBase64Character, (start, end) => {
    if (end - start > MAX_LENGTH) return;
    // A certificate in base64 (a JWKS `x5c`): its DER starts with the same version field, and it is public.
    if (text.startsWith('MII', start) && text.slice(start + 6, start + 24).includes('AwIBAgI')) return;
    // A Twilio account's SID: its name, as every API path shows it (docs/decisions.md).
    if (end - start === 34 && /^AC[0-9a-f]{32}$/.test(text.slice(start, end))) return;
    const token = bareToken(text, start, end, namesData);
    if (token) found.push(token);
  });
  return found;
}

/** Characters one of which stands beside every value found: its quotes, or the `(` or `,` before an argument (the rule's gate). */
export const BARE_TOKEN_CHARACTERS = `'"(,`;
