import { type Form, type KeyName } from './keyedFormParts';
import { FORMS } from './keyedForms';
import { gateScanOf, KEYWORD, WEAK_KEYWORD } from './secretPatterns';
import type { FoundSecret, SecretSpan } from './secretRules';
import { holdsGeneratedSecret } from './keyNames';
import { isHighEntropy, isSecretUnderKey, namesASecret } from './secretValues';

/**
 * Values written under a secret-sounding key name, in every form a key takes: `key = value` in
 * any language or config format, `--key value` on a command line, `<key>value</key>`,
 * `<add key="key" value="…"/>`, `("key", "value")`, `name: key` / `value: …` lists, setters
 * (`setPassword("…")`), credential pairs (`auth=("user", "…")`), `key value` configs and a
 * block's default (`variable "db_password" { default = "…" }`). Names such as `encryption_key`
 * (WEAK_KEYWORD) count only with a value that looks generated; a `keyName` names the key whose
 * `value` follows it (`az … keys list`).
 * One scan finds the key names; each form (keyedForms.ts) is then tried where a name was found,
 * so text that mentions tokens and keys (most code) is read once, not once per form.
 */

const KEY_SCAN = new RegExp(KEYWORD, 'g');
/**
 * Weak words (WEAK_KEYWORD) and `keyName`s, tried only where a `key` or `pat` starts: where the
 * gates' keyword scan found one (GateScan), or where a regex finds one when the text comes
 * without it. One regex of strong and weak words together reads text ~2.5× slower than the two
 * apart, and a scan of its own for where weak words start adds ~2/3 of KEY_SCAN (measured).
 */
const WEAK_START = /[Kk](?:ey|EY)|[_-](?:PAT|pat)|Pat|[Cc](?:red|RED)/g;

function isLowercaseLetter(c: number): boolean {
  return c >= 97 && c <= 122;
}

/**
 * Where a weak word may start: a `key` that ends a name or is `key1`, a `keyName`, a `pat` that
 * ends a name (or the `_`/`-` before it), a `cred` (WEAK_WORD_AT reads on).
 */
function weakStarts(text: string): number[] {
  const scan = gateScanOf(text);
  let found: readonly number[];
  if (scan) found = scan.keyOrPat;
  else {
    const all: number[] = [];
    WEAK_START.lastIndex = 0;
    // The regex starts a `pat` at its `_`: on from there.
    for (let start = WEAK_START.exec(text); start; start = WEAK_START.exec(text)) all.push(/[_-]/.test(start[0][0]!) ? start.index + 1 : start.index);
    found = all;
  }
  const starts: number[] = [];
  for (const at of found) {
    const next = text.charCodeAt(at + 3);
    if (text[at] === 'c' || text[at] === 'C') {
      starts.push(at);
      continue;
    }
    if (text[at] === 'p' || text[at] === 'P') {
      // A weak `pat` ends a name: `GITLAB_PAT`, `githubPat`; `path` and `pattern` do not.
      if (!isLowercaseLetter(next)) starts.push(at > 0 && (text[at - 1] === '_' || text[at - 1] === '-') ? at - 1 : at);
      continue;
    }
    // A weak `key` ends a longer name (`cache_key`, `cacheKey`) or is `key1`; `keyName` is a sibling name.
    const endsName = at > 0 && isNameChar(text.charCodeAt(at - 1)) && !isLowercaseLetter(next);
    if (endsName || next === 49 || next === 50 || /^_?[Nn]ame/.test(text.slice(at + 3, at + 8))) starts.push(at);
  }
  return starts;
}

const WEAK_WORD_AT = new RegExp(`(${WEAK_KEYWORD})|(?:key|Key)_?[Nn]ame(?<![\\w-](?:key|Key)_?[Nn]ame)(?![a-z])`, 'y');

interface KeyWord {
  readonly index: number;
  readonly word: string;
  readonly kind: KeyName['kind'];
}

/** The sensitive, weak and sibling key words of a text, in order; a weak one inside a sensitive one (`api_key`) is part of it. */
function keyWords(text: string): KeyWord[] {
  const words: KeyWord[] = [];
  KEY_SCAN.lastIndex = 0;
  for (let word = KEY_SCAN.exec(text); word; word = KEY_SCAN.exec(text)) words.push({ index: word.index, word: word[0], kind: 'sensitive' });
  const strong = words.length;
  let s = 0;
  for (const start of weakStarts(text)) {
    while (s < strong && words[s]!.index + words[s]!.word.length <= start) s++;
    if (s < strong && words[s]!.index <= start) continue;
    WEAK_WORD_AT.lastIndex = start;
    const weak = WEAK_WORD_AT.exec(text);
    if (!weak) continue;
    // Most weak words in code are followed by no generated value (`cacheKey = await …`).
    if (weak[1] !== undefined && !generatedRunAfter(text, start + weak[0].length)) continue;
    words.push({ index: weak.index, word: weak[0], kind: weak[1] !== undefined ? 'weak' : 'sibling' });
  }
  return words.length > strong && strong > 0 ? words.sort((a, b) => a.index - b.index) : words;
}

const MAX_NAME_SIDE = 40;

/** [\w.-], by code: this runs for every key name found, in most code. */
function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46;
}

/** [A-Za-z0-9+/=_.~-]: what a generated value (isHighEntropy) is made of. */
function isKeyCharacter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46 || c === 43 || c === 47 || c === 61 || c === 126;
}

/**
 * Whether 16 characters of a generated value, a digit among them, follow `from` within two
 * lines: a weak name without one (`expiredKey = await …`, most code) has no value to try forms
 * for. Its own rest (`Name` of `keyName`) counts in the run, which only lets more through.
 */
function generatedRunAfter(text: string, from: number): boolean {
  let run = 0;
  let digit = false;
  let lines = 0;
  for (let at = from; at < text.length && at - from < 200; at++) {
    const c = text.charCodeAt(at);
    if (isKeyCharacter(c)) {
      run++;
      if (c >= 48 && c <= 57) digit = true;
      if (run >= 16 && digit) return true;
      continue;
    }
    if (c === 10 && ++lines > 1) return false;
    run = 0;
    digit = false;
  }
  return false;
}

function keyNameAt(text: string, word: string, wordStart: number, wordEnd: number, kind: KeyName['kind']): KeyName {
  let start = wordStart;
  let end = wordEnd;
  while (start > 0 && wordStart - start < MAX_NAME_SIDE && isNameChar(text.charCodeAt(start - 1))) start--;
  while (end < text.length && end - wordEnd < MAX_NAME_SIDE && isNameChar(text.charCodeAt(end))) end++;
  return { text, word, start, end, wordEnd, kind };
}

/** A block scalar's first line at `first`, on through the lines below it indented as deep (to a blank line). */
function blockScalar(text: string, first: SecretSpan): SecretSpan {
  const indent = text.slice(text.lastIndexOf('\n', first.start) + 1, first.start);
  let end = first.end;
  for (let lines = 0; lines < 100; lines++) {
    const next = end + (text.startsWith('\r\n', end) ? 2 : 1);
    if (text[next - 1] !== '\n' || !text.startsWith(indent, next)) break;
    let lineEnd = next + indent.length;
    while (lineEnd < text.length && text[lineEnd] !== '\n' && text[lineEnd] !== '\r') lineEnd++;
    if (text.slice(next, lineEnd).trim() === '') break;
    end = lineEnd;
  }
  return { start: first.start, end };
}

function firstGroup(match: RegExpExecArray): SecretSpan | null {
  const groups = match.indices ?? [];
  for (let i = 1; i < groups.length; i++) {
    const group = groups[i];
    if (group) return { start: group[0], end: group[1] };
  }
  return null;
}

/**
 * A form's value under a name: a secret, or a name of one (`secret_arn = "arn:…:secret:…"`), whose text holds no key
 * either; `covers`, when wider than `span`, is the text read as the value (later names in it are its).
 */
type Valued = { readonly span: FoundSecret; readonly secret: boolean; readonly covers?: SecretSpan };

/** Where a form's value sits after the name, if it does. */
function valueAfter(form: Extract<Form, { after: RegExp }>, name: KeyName): SecretSpan | null {
  const { text } = name;
  // What follows the name rules out most forms at its first character, without an allocation.
  form.after.lastIndex = form.from === 'word' ? name.wordEnd : name.end;
  const match = form.after.exec(text);
  const first = match && firstGroup(match);
  if (!first) return null;
  const span = form.block ? blockScalar(text, first) : first;
  if (form.before && !form.before.test(text.slice(Math.max(0, name.start - 60), name.start))) return null;
  return span;
}

function tryForm(form: Form, name: KeyName): Valued | null {
  const { text } = name;
  if ((form.sibling === true) !== (name.kind === 'sibling')) return null;
  if (form.around && !form.around(name)) return null;
  const found = 'find' in form ? form.find(name) : valueAfter(form, name);
  if (!found) return null;
  // Inside a JSON string a line ends at an escaped break (`DB_PASS=\nSTRIPE_KEY=…`): an unquoted value stops there (a
  // quoted one may hold them: a PEM key in JSON).
  const escapedBreak = /["'`]/.test(text[found.start - 1] ?? '') ? -1 : text.slice(found.start, found.end).search(/\\[nr]/);
  // The names after the break are read again where the escapes are read as line breaks (continuedLines.ts): here, the
  // whole run stays this value's, so that a run of them is read once.
  if (escapedBreak === 0) return { span: found, secret: false };
  const span = escapedBreak > 0 ? { start: found.start, end: found.start + escapedBreak } : found;
  const covers = escapedBreak > 0 ? found : undefined;
  const value = text.slice(span.start, span.end);
  if (form.accept && !form.accept(value, name)) return null;
  // A weak or sibling name vouches only for a value drawn at random.
  if (name.kind !== 'sensitive' && !isHighEntropy(value)) return null;
  // A `keyName` names the key, not its value: no metadata word in it can tell against the value.
  const key = name.kind === 'sibling' ? '' : text.slice(name.start, name.end);
  // Helm's `checksum/secret:` annotation: a digest of the rendered Secret, there to restart pods when it changes.
  if (name.kind !== 'sibling' && text.endsWith('checksum/', name.start)) return { span, secret: false };
  if (isSecretUnderKey(key, value, text, span)) return { span: { start: span.start, end: throughCut(text, span.end - span.start, span.end), rule: form.rule }, secret: true, covers };
  if (covers) return { span, secret: false, covers };
  return namesASecret(value) && !/^[a-z][a-z0-9+.-]*:\/\//.test(value) ? { span, secret: false } : null;
}

/** The rest of a value the forms read no further than 1,000 characters (a base64 service-account key in a CI variable): to where it ends. */
const REST_OF_VALUE = /[^\s"'`,;(){}[\]，；。、]*/y;
function throughCut(text: string, length: number, end: number): number {
  if (length < 1000) return end;
  REST_OF_VALUE.lastIndex = end;
  REST_OF_VALUE.test(text);
  return REST_OF_VALUE.lastIndex;
}

/** Every form has one of these after its key name: a text without any (a path, a symbol) holds no keyed secret. */
const FORM_CHARACTER = /[=:(<"'\s]/;

export function findKeyedSecrets(text: string): FoundSecret[] {
  if (!FORM_CHARACTER.test(text)) return [];
  const found: FoundSecret[] = [];
  // Values found so far: a form may find one lines after its name (a `name:`/`value:` pair), past other keys.
  let values: SecretSpan[] = [];
  for (const word of keyWords(text)) {
    // Words come in order: a value that ends before this one covers no later word either.
    if (values.length > 16) values = values.filter((value) => value.end > word.index);
    // A key name inside a value already found is part of that value (a URL's query is not: its tokens are found on their own).
    if (values.some((value) => value.start <= word.index && word.index < value.end)) continue;
    const name = keyNameAt(text, word.word, word.index, word.index + word.word.length, word.kind);
    if (word.kind === 'weak' && !holdsGeneratedSecret(text.slice(name.start, name.end))) continue;
    for (const form of FORMS) {
      const valued = tryForm(form, name);
      if (!valued) continue;
      if (valued.secret) found.push(valued.span);
      values.push(valued.covers ?? valued.span);
    }
  }
  return found;
}
