import { ARGUMENT_VALUE, ASSIGNED, KEYWORD, QUOTED_VALUE, UNQUOTED_VALUE } from './secretPatterns';
import type { FoundSecret, SecretSpan } from './secretRules';
import { isSecretUnderKey, isSensitiveKeyName, looksGenerated, namesASecret } from './secretValues';

/**
 * Values written under a secret-sounding key name, in every form a key takes: `key = value` in
 * any language or config format, `--key value` on a command line, `<key>value</key>`,
 * `<add key="key" value="…"/>`, `("key", "value")`, `name: key` / `value: …` lists, setters
 * (`setPassword("…")`), credential pairs (`auth=("user", "…")`) and `key value` configs.
 * One scan finds the key names; each form is then tried where a name was found, so text that
 * mentions tokens and keys (most code) is read once, not once per form.
 */

const KEY_SCAN = new RegExp(KEYWORD, 'g');
const MAX_NAME_SIDE = 40;

/** [\w.-], by code: this runs for every key name found, in most code. */
function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46;
}

interface KeyName {
  readonly text: string;
  /** The sensitive word found, as written. */
  readonly word: string;
  /** Where the key name starts and ends (a run of [\w.-] around the sensitive word). */
  readonly start: number;
  readonly end: number;
  /** End of the sensitive word itself. */
  readonly wordEnd: number;
}

interface Form {
  readonly rule: string;
  /** Cheap test of the characters around the name, before any regex runs. */
  readonly around?: (name: KeyName) => boolean;
  /** Must match the text just before the name (anchored at its end); tried after `after`, which fails faster. */
  readonly before?: RegExp;
  /** Sticky: matched from the name's end (or the word's end), its first participating group the secret. */
  readonly after: RegExp;
  readonly from: 'name' | 'word';
  readonly accept?: (secret: string) => boolean;
}

const sticky = (source: string) => new RegExp(source, 'dy');
const PAIR_VALUE = `"([^"\\r\\n]{1,1000})"|'([^'\\r\\n]{1,1000})'`;
const isQuote = (c: string | undefined) => c === '"' || c === "'";
/** Spaces, then what a generated value starts with: not an operator or a bracket. */
const VALUE_START = /^[ \t]{1,4}["'`A-Za-z0-9]/;

/** `secret: password="…"`: the unquoted "value" is the next key; its own match redacts its value. */
function isNextKey(secret: string): boolean {
  const next = /^([\w.-]+)(?:=|:)/.exec(secret);
  return next !== null && isSensitiveKeyName(next[1]!);
}

/** A method that sets what follows it: `ds.setPassword`, `acme.WithAPIKey`, a builder's `.password`. */
function isSetter(name: KeyName): boolean {
  const path = name.text.slice(name.start, name.end);
  const method = path.slice(path.lastIndexOf('.') + 1);
  return /^(?:set|with|use|put|add|store|save|update)[A-Z_]/i.test(method) || (method.length < path.length && SENSITIVE_METHOD.test(method));
}
const SENSITIVE_METHOD = new RegExp(`^${KEYWORD}$`);

/** What a quoted value of a pair is when it is not a secret: a word of a list, `["password", "username"]`. */
const IDENTIFIER = /^(?:[a-z]+(?:[_-][a-z]+)*|[a-z]+(?:[A-Z][a-z]+)+|[A-Z][a-z]+(?:[A-Z][a-z]+)*|[A-Z]+(?:_[A-Z]+)*)$/;

const FORMS: readonly Form[] = [
  // `password = "…"`, `DB_PASSWORD=…`, `"apiKey": "…"`, `:token => '…'`, `env["TOKEN"] = "…"`.
  { rule: 'generic-assignment', after: sticky(`${ASSIGNED}(?:${QUOTED_VALUE}|${UNQUOTED_VALUE})`), from: 'word', accept: (s) => !isNextKey(s) },
  // `--db-password …`; `--password-stdin` and `--token-file` take no secret.
  {
    rule: 'command-line-password',
    around: (n) => n.wordEnd === n.end && n.text.startsWith('--', n.start) && (n.start === 0 || /\s/.test(n.text[n.start - 1]!)),
    after: sticky(`\\s{1,4}(?:${ARGUMENT_VALUE})`),
    from: 'name',
    accept: (s) => !s.startsWith('-'),
  },
  // `<password>…</password>`, `<db:apiToken>…</db:apiToken>`.
  {
    rule: 'xml-secret',
    around: (n) => n.text[n.start - 1] === '<' || n.text[n.start - 1] === ':',
    before: /<(?:[\w.-]{1,40}:)?$/,
    after: sticky(`(?:\\s[^<>]{0,200})?>([^<]{1,1000})</`),
    from: 'name',
  },
  // `<add key="DbPassword" value="…"/>`, `<entry key="jdbc.password">…</entry>`, `<property name="password">…`.
  {
    rule: 'xml-secret',
    around: (n) => isQuote(n.text[n.start - 1]),
    before: /(?<![\w-])(?:key|name)=["']$/,
    after: sticky(`["'](?:\\s{1,20}value=(?:${PAIR_VALUE})|\\s{0,4}>([^<]{1,1000})<)`),
    from: 'name',
  },
  // `define('DB_PASSWORD', '…')`, `System.setProperty("db.password", "…")`, `os.Setenv("API_TOKEN", "…")`.
  {
    rule: 'generic-assignment',
    around: (n) => isQuote(n.text[n.start - 1]) && isQuote(n.text[n.end]),
    after: sticky(`["']\\s{0,4},\\s{0,4}(?:${PAIR_VALUE})`),
    from: 'name',
    accept: (s) => !IDENTIFIER.test(s),
  },
  // A setter, a functional option or a builder: `ds.setPassword("…")`, `WithAPIKey("…")`, `.password("…")`.
  {
    rule: 'generic-assignment',
    around: (n) => n.text[n.end] === '(' && isSetter(n),
    after: sticky(`\\(\\s{0,4}(?:${PAIR_VALUE})\\s{0,4}[,)]`),
    from: 'name',
  },
  // A user and password pair: `auth=("api", "…")`, `SetBasicAuth("u", "…")`, `HTTPBasicAuth('u', '…')`.
  {
    rule: 'generic-assignment',
    around: (n) => /^auth$/i.test(n.word) && /[\s=:([]/.test(n.text[n.end] ?? ''),
    after: sticky(`\\s{0,4}[=:]?\\s{0,4}[(\\[]\\s{0,4}(?:"[^"\\r\\n]{0,200}"|'[^'\\r\\n]{0,200}')\\s{0,4},\\s{0,4}(?:${PAIR_VALUE})`),
    from: 'name',
  },
  // `key value`, with no operator: `aws configure set aws_secret_access_key …`, nginx, fish's `set -gx`.
  {
    rule: 'generic-assignment',
    around: (n) => (n.text[n.end] === ' ' || n.text[n.end] === '\t') && VALUE_START.test(n.text.slice(n.end, n.end + 6)),
    after: sticky(`[ \\t]{1,4}(?:${QUOTED_VALUE}|${UNQUOTED_VALUE})`),
    from: 'name',
    accept: looksGenerated,
  },
  // An environment list entry: `- name: DB_PASSWORD` then `value: …` (Kubernetes, ECS, JSON).
  {
    rule: 'generic-assignment',
    before: /(?<![\w-])name["']?[ \t]{0,4}[:=][ \t]{0,4}["']?$/,
    after: sticky(`["']?[ \\t]{0,4},?[ \\t]{0,4}(?:\\r?\\n[ \\t]{0,40}(?:-[ \\t]{1,4})?)?["']?value["']?[ \\t]{0,4}[:=][ \\t]{0,4}(?:${QUOTED_VALUE}|${UNQUOTED_VALUE})`),
    from: 'name',
  },
];

function keyNameAt(text: string, word: string, wordStart: number, wordEnd: number): KeyName {
  let start = wordStart;
  let end = wordEnd;
  while (start > 0 && wordStart - start < MAX_NAME_SIDE && isNameChar(text.charCodeAt(start - 1))) start--;
  while (end < text.length && end - wordEnd < MAX_NAME_SIDE && isNameChar(text.charCodeAt(end))) end++;
  return { text, word, start, end, wordEnd };
}

function firstGroup(match: RegExpExecArray): SecretSpan | null {
  const groups = match.indices ?? [];
  for (let i = 1; i < groups.length; i++) {
    const group = groups[i];
    if (group) return { start: group[0], end: group[1] };
  }
  return null;
}

/** A form's value under a name: a secret, or a name of one (`secret_arn = "arn:…:secret:…"`), whose text holds no key either. */
type Valued = { readonly span: FoundSecret; readonly secret: boolean };

function tryForm(form: Form, name: KeyName): Valued | null {
  const { text } = name;
  if (form.around && !form.around(name)) return null;
  // What follows the name rules out most forms at its first character, without an allocation.
  form.after.lastIndex = form.from === 'word' ? name.wordEnd : name.end;
  const match = form.after.exec(text);
  const span = match && firstGroup(match);
  if (!span) return null;
  if (form.before && !form.before.test(text.slice(Math.max(0, name.start - 60), name.start))) return null;
  const value = text.slice(span.start, span.end);
  if (form.accept && !form.accept(value)) return null;
  if (isSecretUnderKey(text.slice(name.start, name.end), value, text, span)) return { span: { ...span, rule: form.rule }, secret: true };
  return namesASecret(value) && !/^[a-z][a-z0-9+.-]*:\/\//.test(value) ? { span, secret: false } : null;
}

/** Every form has one of these after its key name: a text without any (a path, a symbol) holds no keyed secret. */
const FORM_CHARACTER = /[=:(<"'\s]/;

export function findKeyedSecrets(text: string): FoundSecret[] {
  if (!FORM_CHARACTER.test(text)) return [];
  const found: FoundSecret[] = [];
  let covered = 0;
  KEY_SCAN.lastIndex = 0;
  for (let word = KEY_SCAN.exec(text); word; word = KEY_SCAN.exec(text)) {
    // A key name inside a value already found is part of that value (a URL's query is not: its tokens are found on their own).
    if (word.index < covered) continue;
    const name = keyNameAt(text, word[0], word.index, word.index + word[0].length);
    for (const form of FORMS) {
      const valued = tryForm(form, name);
      if (!valued) continue;
      if (valued.secret) found.push(valued.span);
      covered = Math.max(covered, valued.span.end);
    }
  }
  return found;
}
