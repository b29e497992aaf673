import { ARGUMENT_VALUE, ASSIGNED, ESCAPED_QUOTED_VALUE, KEYWORD, LANGUAGE_LITERAL, QUOTED_VALUE, QUOTED_VALUE_WITH_ESCAPES, UNQUOTED_VALUE } from './secretPatterns';
import type { SecretSpan } from './secretRules';
import { isQuote, PAIR_VALUE, sticky, type Form, type KeyName } from './keyedFormParts';
import { XML_FORMS } from './xmlKeyedForms';
import { isSensitiveKeyName } from './keyNames';
import { characterClasses, isHighEntropy, isPlaceholderValue, looksGenerated, readsAsPassword } from './secretValues';

const OPENAPI_NAME = /(?<![\w-])name[ \t]{0,4}:[ \t]{0,4}$/;

/**
 * The forms a value takes under a key name (keyedSecrets.ts finds the names): `key = value` in
 * any language or config format (a password of symbols too), `--key value`, XML
 * (xmlKeyedForms.ts), pairs, setters, comparisons either way round, statements, constructors,
 * `key value` configs, table rows, a block's default, sibling `name`/`value` fields.
 */

const TABLE_CELL_AFTER_NAME = /^[ \t|│┃║]$/;
const DOTTED_IDENTIFIER = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/** A table's header in capitals that has a digest's column: `NAME  DIGEST  CREATED AT` (`fly secrets list`). */
const DIGEST_HEADER = /^[ \t]*[A-Z][A-Z_ ]{0,80}[ \t](?:DIGEST|SHA256|CHECKSUM|HASH|FINGERPRINT)\b[A-Z_ \t]{0,80}$/m;

/** A row of a table whose header, at most 20 lines up, names a digest's column: the values listed are digests. */
function underDigestHeader(n: KeyName): boolean {
  let from = n.start;
  for (let lines = 0; lines < 20 && from > 0; lines++) from = Math.max(0, n.text.lastIndexOf('\n', from - 1));
  return DIGEST_HEADER.test(n.text.slice(from, n.start));
}
/** A string literal holding a quoted string, as Gradle's `buildConfigField` takes one: `"\\"…\\""`. */
const QUOTED_IN_QUOTES = `"\\\\"([^"\\\\\\r\\n]{1,1000})\\\\""`;
/** What may wrap a literal value: a conversion to bytes or a secret type, or a string prefix (Python's `b"…"`, `r'…'`, C#'s `@"…"`, bash's `$'…'`). */
const LITERAL_WRAPPER = `(?:\\[\\]byte\\(|Buffer\\.from\\(|SecretStr\\(|[bBrRuU@](?=["'])|\\$(?='))?`;
/** Spaces, then what a generated value starts with: not an operator or a bracket. */
const VALUE_START = /^[ \t]{1,4}["'`A-Za-z0-9+/]/;

/** `secret: password="…"`: the unquoted "value" is the next key; its own match redacts its value. */
function isNextKey(secret: string): boolean {
  const next = /^([\w.-]+)(?:=|:)/.exec(secret);
  // Go's `%+v` of a struct whose field is empty: `{… Password: Name:ledger}`, the next field.
  return next !== null && (isSensitiveKeyName(next[1]!) || /^[A-Z][a-z]+(?:[A-Z][a-z]+)*:/.test(secret));
}

/** A method that sets what follows it: `ds.setPassword`, `acme.WithAPIKey`, a builder's `.password`, `secret.assign`. */
function isSetter(name: KeyName): boolean {
  const path = name.text.slice(name.start, name.end);
  const method = path.slice(path.lastIndexOf('.') + 1);
  if (/^(?:set|with|use|put|add|store|save|update)[A-Z_]/i.test(method)) return true;
  // On a secret itself: `password.assign("…", n)` (C++'s std::string), a builder's `.password("…")`.
  return method.length < path.length && (method === 'assign' || SENSITIVE_METHOD.test(method));
}
const SENSITIVE_METHOD = new RegExp(`^${KEYWORD}$`);

/** What a quoted value of a pair is when it is not a secret: a word of a list, `["password", "username"]`. */
const IDENTIFIER = /^(?:[a-z]+(?:[_-][a-z]+)*|[a-z]+(?:[A-Z][a-z]+)+|[A-Z][a-z]+(?:[A-Z][a-z]+)*|[A-Z]+(?:_[A-Z]+)*)$/;

const ASSIGNED_AT = new RegExp(ASSIGNED, 'y');
const MAX_SYMBOL_PASSWORD = 100;
const PLAIN_RUN = new RegExp(`[^\\s(){}[\\],;\\u0080-\\uffff]{0,${MAX_SYMBOL_PASSWORD}}`, 'y');
/** What each ASCII character is to a symbol password: 1 ends it (a space), 2 a bracket's opener (code `([{` + 2), 6 its closer, 9 a `,` or `;`. */
const SYMBOL_CLASS = new Uint8Array(128);
for (const c of ' \t\n\r\f\v') SYMBOL_CLASS[c.charCodeAt(0)] = 1;
[...'([{'].forEach((c, i) => (SYMBOL_CLASS[c.charCodeAt(0)] = 2 + i));
[...')]}'].forEach((c, i) => (SYMBOL_CLASS[c.charCodeAt(0)] = 6 + i));
SYMBOL_CLASS[44] = 9;
SYMBOL_CLASS[59] = 9;

/**
 * An unquoted password of symbols after `key =`, where UNQUOTED_VALUE stops at its first bracket,
 * comma or semicolon: `pass := m{{h}o)p${e]nob(…}}`, `secrete = A,.:-¨@*¿?!`. It runs to a space;
 * code's brackets nest, so a closer with nothing open ends it (`connect(password=pw)`), and a
 * run whose brackets all close is code (`os.environ["PW"]`, `getToken()`). One with a bracket
 * closed by another kind (`{…)`) is no code; nor is one at least half symbols of four kinds or
 * more, with no brackets. A `,` `;` or quote ending it is the code's; a regex literal is code.
 */
function symbolPassword({ text, wordEnd }: KeyName): SecretSpan | null {
  ASSIGNED_AT.lastIndex = wordEnd;
  if (!ASSIGNED_AT.test(text)) return null;
  const start = ASSIGNED_AT.lastIndex;
  const first = text[start];
  if (first === undefined || first === '"' || first === "'" || first === '`') return null;
  // Most values hold none of a bracket, comma, semicolon or letter beyond ASCII before their space: UNQUOTED_VALUE reads those whole.
  PLAIN_RUN.lastIndex = start;
  PLAIN_RUN.test(text);
  const stop = text.charCodeAt(PLAIN_RUN.lastIndex);
  if (PLAIN_RUN.lastIndex - start >= MAX_SYMBOL_PASSWORD || Number.isNaN(stop) || SYMBOL_CLASS[stop] === 1) return null;
  const open: number[] = [];
  let crossed = false;
  let brackets = false;
  let stops = false;
  let end = start;
  for (; end < text.length; end++) {
    if (end - start >= MAX_SYMBOL_PASSWORD) return null;
    const code = text.charCodeAt(end);
    const kind = code < 128 ? SYMBOL_CLASS[code]! : 9;
    if (kind === 0) continue;
    if (kind === 1) break;
    if (kind === 9) stops = true;
    else if (kind < 6) {
      open.push(kind);
      brackets = true;
    } else if (open.length > 0) {
      brackets = true;
      if (open.pop() !== kind - 4) crossed = true;
    } else if (!crossed) break;
  }
  // Brackets that nest are code.
  if ((!brackets && !stops) || (brackets && !crossed)) return null;
  const value = text.slice(start, end).replace(/[,;'"`]+$/, '');
  if (value.length < 8 || /^\/.+\/[a-z]*$/.test(value)) return null;
  const symbols = value.replace(/[A-Za-z0-9]/g, '');
  const symbolic = crossed || (symbols.length * 2 >= value.length && new Set(symbols).size >= 4);
  return symbolic ? { start, end: start + value.length } : null;
}

/** Back from `at` over up to four spaces or tabs. */
function skipSpacesBack(text: string, at: number): number {
  const from = at;
  while (at > 0 && from - at < 4 && (text[at] === ' ' || text[at] === '\t')) at--;
  return at;
}

/** The literal on the left of `"…" == password`, `'…' !== my_private_key` (a comparison written value first). */
function comparedLiteral({ text, start }: KeyName): SecretSpan | null {
  // `==`, `===`, `!=` or `!==`, read from its end.
  let at = skipSpacesBack(text, start - 1);
  if (text[at] !== '=') return null;
  at--;
  if (text[at] === '=') at -= text[at - 1] === '=' || text[at - 1] === '!' ? 2 : 1;
  else if (text[at] === '!') at--;
  else return null;
  const close = skipSpacesBack(text, at);
  const quote = text[close];
  if (quote !== '"' && quote !== "'" && quote !== '`') return null;
  const open = text.lastIndexOf(quote, close - 1);
  if (open < 0 || close - open < 2 || close - open > 1001) return null;
  for (let at = open + 1; at < close; at++) if (text[at] === '\n') return null;
  return { start: open + 1, end: close };
}

export const FORMS: readonly Form[] = [
  // `password = "…"`, `DB_PASSWORD=…`, `"apiKey": "…"`, `:token => '…'`, `env["TOKEN"] = "…"`; a literal
  // made bytes (`[]byte("…")`, `b"…"`, `Buffer.from("…")`); `{\"password\":\"…\"}`, JSON inside a string (a log line).
  {
    rule: 'generic-assignment',
    // A YAML anchor may name the value first: `x-db-pass: &dbpass …`.
    // A quoted value runs past its escaped quotes: `"q7\"Lm…"`, `{"secret": "password = \"…\""}` (all of it the secret's).
    after: sticky(`${ASSIGNED}(?:&[\\w-]{1,40}[ \\t]{1,4})?(?:${LITERAL_WRAPPER}(?:${QUOTED_VALUE_WITH_ESCAPES})|${ESCAPED_QUOTED_VALUE}|${UNQUOTED_VALUE})`),
    from: 'word',
    accept: (s) => !isNextKey(s),
  },
  // Other languages' literals (LANGUAGE_LITERAL): `password: '''…'''`, `password = [==[…]==]`, `let api_key = {|…|}`, `secret_key: ~s(…)`.
  { rule: 'generic-assignment', after: sticky(`${ASSIGNED}(?:${LANGUAGE_LITERAL})`), from: 'word' },
  // A JSON array of one value (Keycloak's component config: `"bindCredential": ["…"]`); a list of several is names or settings.
  { rule: 'generic-assignment', after: sticky(`${ASSIGNED}\\[[ \\t]{0,4}(?:${QUOTED_VALUE})[ \\t]{0,4}\\]`), from: 'word' },
  // The overlap's other shape: `api_secret: key="…"`, `secret: value='…'` (a bare key or value inside the secret's).
  {
    rule: 'generic-assignment',
    around: (n) => /[kKvV]/.test(n.text.slice(n.wordEnd, n.wordEnd + 48)),
    after: sticky(`${ASSIGNED}(?:key|Key|KEY|value|Value|VALUE)[ \\t]{0,4}=[ \\t]{0,4}(?:${PAIR_VALUE})`),
    from: 'word',
  },
  // A short unquoted password under a password's own name, read as chosen (three kinds of character): `-e POSTGRES_PASSWORD=ySZcB62`.
  // Tokens and keys are drawn long; a short value under one is grammar or code (`token = 1*tchar`).
  {
    rule: 'generic-assignment',
    around: (n) => n.kind === 'sensitive' && /pass|pwd/i.test(n.word),
    after: sticky(`${ASSIGNED}([^\\s"'\`,;(){}\\[\\]<>=:$%]{6,7})(?=[\\s"'\`;,)]|$)`),
    from: 'word',
    // Letters and a digit, not a YAML tag or anchor (`!GetAtt`, `&db`) or an option.
    accept: (s) => characterClasses(s) >= 3 && /[0-9]/.test(s) && /[A-Za-z]/.test(s) && !/^[!&*@-]/.test(s) && !isPlaceholderValue(s),
  },
  // The same, unquoted, a password of symbols and brackets that would end UNQUOTED_VALUE: `pass := m{{h}o)p${e]…}}`.
  { rule: 'generic-assignment', find: symbolPassword, accept: (s) => !isNextKey(s) },
  // A statement of a key and its quoted value: `password "…";`, BIND's `secret "…";`.
  {
    rule: 'generic-assignment',
    around: (n) => n.text[n.end] === ' ' || n.text[n.end] === '\t',
    after: sticky(`[ \\t]{1,4}(?:${QUOTED_VALUE})[ \\t]{0,4};`),
    from: 'name',
    accept: (s) => !/^\s|\s$/.test(s),
  },
  // A string constructed with it: C++'s `std::string secret("…")`, Qt's `QString token("…")`.
  {
    rule: 'generic-assignment',
    around: (n) => n.text[n.end] === '(',
    before: /(?:^|[^\w:])(?:std::)?(?:w|u8|u16|u32)?string[ \t]{1,4}$|(?:^|[^\w])[A-Z]?[A-Za-z]{0,20}String[ \t]{1,4}$/,
    after: sticky(`\\(\\s{0,4}(?:${PAIR_VALUE})\\s{0,4}\\)`),
    from: 'name',
  },
  // A default for an environment variable: Rails' `<%= ENV.fetch("…") { "…" } %>`, Laravel's `env('…', '…')`,
  // Python's `os.getenv("…", "…")` and `os.environ.get("…", "…")`.
  {
    rule: 'generic-assignment',
    after: sticky(`${ASSIGNED}(?:<%=[ \\t]{0,4})?(?:ENV\\.fetch|env|getenv|os\\.getenv|os\\.environ\\.get)\\([ \\t]{0,4}(?:"[^"\\r\\n]{1,200}"|'[^'\\r\\n]{1,200}')[ \\t]{0,4}(?:,[ \\t]{0,4}(?:${PAIR_VALUE})[ \\t]{0,4}\\)|\\)[ \\t]{0,4}\\{[ \\t]{0,4}(?:${PAIR_VALUE}))`),
    from: 'word',
    accept: (s) => !IDENTIFIER.test(s),
  },
  // A literal fallback in a GitHub Actions expression: `${{ secrets.DB_PASS || '…' }}`.
  {
    rule: 'generic-assignment',
    after: sticky(`${ASSIGNED}["']?\\$\\{\\{[^}\\r\\n]{0,200}\\|\\|[ \\t]{0,4}'([^'\\r\\n]{1,1000})'[ \\t]{0,4}\\}\\}`),
    from: 'word',
    accept: (s) => !IDENTIFIER.test(s),
  },
  // A literal in Terraform's `try(…, "…")`, `coalesce(…, "…")` or a type's `optional(string, "…")` default.
  {
    rule: 'generic-assignment',
    after: sticky(`${ASSIGNED}(?:try|coalesce|optional)\\((?:[^()"'\\r\\n]|\\([^()\\r\\n]{0,200}\\)){0,200}?,[ \\t]{0,4}(?:${PAIR_VALUE})`),
    from: 'word',
    accept: (s) => !IDENTIFIER.test(s),
  },
  // COBOL's data item: `01 WS-DB-PASSWORD  PIC X(16) VALUE '…'.`
  {
    rule: 'generic-assignment',
    around: (n) => n.text[n.end] === ' ',
    after: sticky(`[ \\t]{1,20}PIC(?:TURE)?[ \\t]{1,4}X\\([0-9]{1,4}\\)[ \\t]{1,4}VALUE[ \\t]{1,4}(?:${PAIR_VALUE})`),
    from: 'name',
  },
  // A YAML block scalar: `token: >` or `|`, the value on the lines below, each line one word of it.
  {
    rule: 'generic-assignment',
    after: sticky(`[\\w.-]{0,40}["']?[ \\t]{0,4}:[ \\t]{1,4}[|>][1-9]?[+-]?[1-9]?[ \\t]*\\r?\\n[ \\t]{1,40}(\\S[^\\r\\n]{0,1000})`),
    from: 'word',
    block: true,
    accept: (s) => s.split('\n').every((line) => !/\S\s+\S/.test(line)),
  },
  // A comparison with a literal: `if (apiKey == "…")`, `db_pass !== '…'`.
  {
    rule: 'generic-assignment',
    after: sticky(`[\\w.-]{0,40}["'\\]]{0,2}[ \\t]{0,4}(?:===?|!==?)[ \\t]{0,4}(?:${QUOTED_VALUE})`),
    from: 'word',
  },
  // The literal written first: `if ("…" == password)`, `"…" !== my_private_key`.
  { rule: 'generic-assignment', find: comparedLiteral },
  // A typed declaration: Go's `var dbPassword string = "…"`, `apiKey: string = "…"` (TypeScript, Kotlin), Rust's `&str`, Swift's `String!`.
  {
    rule: 'generic-assignment',
    after: sticky(`[\\w.-]{0,40}(?:[ \\t]{1,4}|[ \\t]{0,4}:[ \\t]{0,4})(?:string|String|str|&(?:'static )?str|\\[\\]byte|\\[\\]const u8)[?!]?[ \\t]{0,4}=[ \\t]{0,4}(?:${QUOTED_VALUE})`),
    from: 'word',
  },
  // `--db-password …`, `-storePassword …`; `--password-stdin` and `--token-file` take no secret.
  {
    rule: 'command-line-password',
    around: (n) => n.wordEnd === n.end && n.text[n.start] === '-' && (n.start === 0 || /\s/.test(n.text[n.start - 1]!)),
    after: sticky(`\\s{1,4}(?:${ARGUMENT_VALUE})`),
    from: 'name',
    accept: (s) => !s.startsWith('-'),
  },
  ...XML_FORMS,
  // `define('DB_PASSWORD', '…')`, `System.setProperty("db.password", "…")`, `os.Setenv("API_TOKEN", "…")`.
  {
    rule: 'generic-assignment',
    around: (n) => isQuote(n.text[n.start - 1]) && isQuote(n.text[n.end]),
    // Not a JSON object's next key (`"login.password": "Password", "login.forgot": …`).
    after: sticky(`["']\\s{0,4},\\s{0,4}(?:${QUOTED_IN_QUOTES}|${PAIR_VALUE})(?![ \\t]{0,4}:)`),
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
  // A user and password pair: `auth=("api", "…")`, `SetBasicAuth("u", "…")`, `HTTPBasicAuth('u', '…')`, Rust's `.basic_auth("u", Some("…"))`.
  {
    rule: 'generic-assignment',
    around: (n) => /^auth$/i.test(n.word) && /[\s=:([]/.test(n.text[n.end] ?? ''),
    after: sticky(`\\s{0,4}[=:]?\\s{0,4}[(\\[]\\s{0,4}(?:"[^"\\r\\n]{0,200}"|'[^'\\r\\n]{0,200}')\\s{0,4},\\s{0,4}(?:Some\\(\\s{0,4})?(?:${PAIR_VALUE})`),
    from: 'name',
  },
  // A client's password method called with it alone: Lua's `red:auth("…")`, `client.auth('…')` (Redis' AUTH).
  {
    rule: 'generic-assignment',
    around: (n) => n.text[n.end] === '(' && (n.text[n.start - 1] === ':' || n.text[n.start - 1] === '.') && /^auth$/i.test(n.word),
    after: sticky(`\\(\\s{0,4}(?:${PAIR_VALUE})\\s{0,4}\\)`),
    from: 'name',
  },
  // `key value`, with no operator: `aws configure set aws_secret_access_key …`, nginx, fish's `set -gx`.
  {
    rule: 'generic-assignment',
    around: (n) => (n.text[n.end] === ' ' || n.text[n.end] === '\t') && VALUE_START.test(n.text.slice(n.end, n.end + 6)),
    after: sticky(`[ \\t]{1,4}(?:${QUOTED_VALUE}|${UNQUOTED_VALUE})`),
    from: 'name',
    // Not the next pair of a log line (`reason=invalid_password request_id=…`).
    accept: (s, n) => looksGenerated(s) && !underDigestHeader(n) && !/^[A-Za-z_][\w.-]{0,60}[=:][^\s=:]/.test(s),
  },
  // A properties file's aligned columns: `spark.hadoop.fs.s3a.secret.key      …` (Spark, Hadoop), a dotted name starting
  // its line (a printed table's rows, `password      …`, are the table's rules').
  {
    rule: 'generic-assignment',
    around: (n) => (n.text[n.end] === ' ' || n.text[n.end] === '\t') && n.text.slice(n.start, n.end).includes('.'),
    before: /(?:^|\n)[ \t]{0,40}$/,
    after: sticky(`[ \\t]{5,60}(?:${QUOTED_VALUE}|${UNQUOTED_VALUE})[ \\t]*(?=\\r?\\n|$)`),
    from: 'name',
    accept: (s) => looksGenerated(s) && !isPlaceholderValue(s),
  },
  // fish's `set -gx NAME '…'` and a config line `Password …` (cntlm, proxies): a name that holds a password alone
  // before its value, which reads as chosen or drawn.
  {
    rule: 'generic-assignment',
    around: (n) => n.kind === 'sensitive' && (n.text[n.end] === ' ' || n.text[n.end] === '\t'),
    before: /(?:^|\n)[ \t]{0,40}(?:set(?:[ \t]{1,4}-[gxUlu]{1,4}){1,3}[ \t]{1,4})?$/,
    // A space or two, not a table's column (`password           …` under `vault read` is the table's), nor a regex.
    after: sticky(`[ \\t]{1,2}(?:${PAIR_VALUE}|([^\\s"'\`|()[\\]{}]{6,200}))[ \\t]*(?=\\r?\\n|$)`),
    from: 'name',
    accept: (s) => readsAsPassword(s) && !isPlaceholderValue(s),
  },
  // A table's row, the name in one cell and the value in the next: `║ PGPASSWORD │ … ║` (a CLI's box), `| DB_PASSWORD | … |`.
  {
    rule: 'generic-assignment',
    around: (n) => TABLE_CELL_AFTER_NAME.test(n.text[n.end] ?? ''),
    // The name in a row's first cell: not a regex's or a union type's `|` mid-line.
    before: /(?:^|\n)[ \t]{0,40}[|│┃║][ \t]{0,40}$/,
    after: sticky(`[ \\t]{0,60}[|│┃║][ \\t]{0,60}(?:${PAIR_VALUE}|([^\\s|│┃║"'\`]{1,1000}))[ \\t]{0,200}[|│┃║]`),
    from: 'name',
    // A type or a constant in a table of them (`| token | ts.Token |`) is not a password.
    accept: (s) => readsAsPassword(s) && !DOTTED_IDENTIFIER.test(s),
  },
  // A block's default: Terraform's `variable "db_password" {` then `default = "…"`, a JSON schema's
  // `"password": {"type": "string", "default": "…"}`, CloudFormation's `DBPassword:` then `Default: …`.
  {
    rule: 'generic-assignment',
    around: (n) => n.wordEnd === n.end,
    after: sticky(
      `["']?[ \\t]{0,4}(?::[ \\t]{0,4})?(?:\\{|\\r?\\n)[^{}]{0,300}?(?<![\\w-])["']?[Dd]efault["']?[ \\t]{0,4}[:=][ \\t]{0,4}(?:${QUOTED_VALUE}|${UNQUOTED_VALUE})`,
    ),
    from: 'name',
  },
  // A block's value: an ARM parameters file's `"adminPassword": { "value": "…" }`, API Connect's
  // `mock-proxy-password:` then `value: …`; not a word (`Token { type: 'Keyword', value: 'let' }`).
  {
    rule: 'generic-assignment',
    around: (n) => n.wordEnd === n.end,
    after: sticky(
      `["']?[ \\t]{0,4}(?::[ \\t]{0,4})?(?:\\{|\\r?\\n)[^{}]{0,300}?(?<![\\w-])["']?value["']?[ \\t]{0,4}[:=][ \\t]{0,4}(?:${QUOTED_VALUE}|${UNQUOTED_VALUE})`,
    ),
    from: 'name',
    accept: (s) => s.length >= 6 && !IDENTIFIER.test(s),
  },
  // `"keyName": "key1", "permissions": "FULL", "value": "…"`: the key named, then its value (Azure's key lists).
  {
    rule: 'generic-assignment',
    sibling: true,
    after: sticky(`["']?[ \\t]{0,4}[:=][ \\t]{0,4}["']?[\\w.-]{1,60}["']?[^{}]{0,300}?(?<![\\w-])["']?value["']?[ \\t]{0,4}[:=][ \\t]{0,4}(?:${QUOTED_VALUE}|${UNQUOTED_VALUE})`),
    from: 'name',
  },
  // Prose: `the password is …`, `the root password for the new box is` then the value on the next line.
  {
    rule: 'generic-assignment',
    around: (n) => n.wordEnd === n.end && n.text[n.end] === ' ',
    after: sticky(`(?: [a-z]{1,15}){0,6} (?:is|was|will be|would be|should be)[ \\t]{0,4}:?\\s{1,4}(?:${QUOTED_VALUE}|${UNQUOTED_VALUE})`),
    from: 'name',
    accept: looksGenerated,
  },
  // An environment list entry: `- name: DB_PASSWORD` then `value: …` (Kubernetes, ECS, JSON, a Terraform plan's `+ value = …`).
  {
    rule: 'generic-assignment',
    before: /(?<![\w-])name["']?[ \t]{0,4}[:=][ \t]{0,4}["']?$/,
    after: sticky(`["']?[ \\t]{0,4},?[ \\t]{0,4}(?:\\r?\\n[ \\t]{0,40}(?:[-+~][ \\t]{1,4})?)?["']?value["']?[ \\t]{0,4}[:=][ \\t]{0,4}(?:${QUOTED_VALUE}|${UNQUOTED_VALUE})`),
    from: 'name',
  },
  // An OpenAPI parameter's example a few lines on: `name: X-Api-Key`, its schema, then `example: …` (drawn ones only).
  {
    rule: 'generic-assignment',
    // Tried only after `name:` (the lazy reach past other lines is costly for every key name).
    around: (n) => OPENAPI_NAME.test(n.text.slice(Math.max(0, n.start - 40), n.start)),
    before: /(?<![\w-])name["']?[ \t]{0,4}[:=][ \t]{0,4}["']?$/,
    after: sticky(`["']?[^{}]{0,300}?(?<![\\w-])["']?(?:x-)?example["']?[ \\t]{0,4}[:=][ \\t]{0,4}(?:${QUOTED_VALUE}|${UNQUOTED_VALUE})`),
    from: 'name',
    accept: (s) => isHighEntropy(s),
  },
];
