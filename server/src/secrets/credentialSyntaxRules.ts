import { findDsnPasswords } from './goDsnPasswords';
import { anyCasePrefix } from './secretPatterns';
import type { SecretRule, SecretSpan } from './secretRules';
import { holdsSecret } from './keyNames';
import { isHighEntropy, isPlaceholderValue, looksGenerated } from './secretValues';

/**
 * Passwords known by where they are written rather than by their shape or a key name: in a URL
 * or a DSN, after an HTTP authorization scheme, in SQL, PowerShell, .netrc and .pgpass, and
 * the signatures that make a URL a credential (Azure SAS, S3 and GCS presigned URLs).
 */

function acceptNonPlaceholder(secret: string): boolean {
  return !isPlaceholderValue(secret);
}

/** A call that encodes a pair for a Basic header, given a variable: `GetBytes($pair)`, `btoa(creds)`, `b64encode(auth)`. */
// A name of three characters or more: minified code's one-letter names are reused everywhere.
const ENCODES_VARIABLE = /(?:btoa|b64encode|Buffer\.from|EncodeToString|encodeToString|GetBytes)\(\s{0,4}(\$?[A-Za-z_]\w{2,60})(?:\.encode\(\))?\s{0,4}[,)]/g;

/** The variables such calls encode, then their assignments of a `user:password` literal earlier in the text. */
function findEncodedPairVariables(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  ENCODES_VARIABLE.lastIndex = 0;
  for (let call = ENCODES_VARIABLE.exec(text); call; call = ENCODES_VARIABLE.exec(text)) {
    const name = call[1]!.replace(/^\$/, '\\$');
    const assigned = new RegExp(`(?<![\\w$])${name}\\s{0,4}=\\s{0,4}(["'\`])[\\w.@\\\\-]{1,100}:([^"'\`\\s$]{4,1000})\\1`, 'dg');
    for (const match of text.slice(0, call.index).matchAll(assigned)) {
      const [start, end] = match.indices![2]!;
      // Not a URL (`https://…`), whose scheme reads as a user.
      if (!match[2]!.startsWith('/') && !isPlaceholderValue(match[2]!)) spans.push({ start, end });
    }
  }
  return spans;
}

/**
 * `host:port:database:user:password` lines (.pgpass, where `*` matches any): PostgreSQL's port
 * (543x, PgBouncer's 643x) or `*` in second place, and no space anywhere. A colon or backslash
 * in the password is escaped (`\\:`). The line is read back from each `:port:`, not tried at
 * every character; any port would open the rule on most texts, which hold colons.
 */
const PGPASS_PORT = /:(?:[56]43\d|\*):/g;
const PGPASS_LINE = /(?<=^|[\s"'])(?:[A-Za-z0-9._*-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\]):(?:[56]43\d|\*):[^:\s"']{1,63}:[^:\s"']{1,63}:((?:[^\s:\\"']|\\.){4,1000})(?=$|[\s"'])/dmy;

function findPgpassPasswords(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  let lineStart = -1;
  PGPASS_PORT.lastIndex = 0;
  for (let port = PGPASS_PORT.exec(text); port; port = PGPASS_PORT.exec(text)) {
    // Back over the host (a name, or an IPv6 address in brackets) to the start of the line or of a quoted or spaced word.
    let start = port.index;
    if (text[start - 1] === ']') start = text.lastIndexOf('[', start - 1);
    else while (start > 0 && port.index - start < 253 && /[A-Za-z0-9._*-]/.test(text[start - 1]!)) start--;
    if (start <= 0 ? start < 0 : !/[\s"']/.test(text[start - 1]!)) continue;
    if (start === lineStart) continue;
    lineStart = start;
    PGPASS_LINE.lastIndex = start;
    const line = PGPASS_LINE.exec(text);
    const indices = line?.indices?.[1];
    if (!indices) continue;
    const password = text.slice(indices[0], indices[1]);
    // Times, versions and addresses have colons too: a password is not digits and colons alone.
    if (/^[0-9.]+$/.test(password) || isPlaceholderValue(password)) continue;
    spans.push({ start: indices[0], end: indices[1] });
    PGPASS_PORT.lastIndex = indices[1];
  }
  return spans;
}

/** `kind: Secret`, also indented or lowercased as hand-written manifests have it. */
const SECRET_KIND = /^[ \t]{0,8}kind:[ \t]*["']?[Ss]ecret["']?[ \t]*\r?$/m;
const SECRET_DATA = /^([ \t]*)(?:data|stringData):[ \t]*$/gm;
/** A line `---`, or a top-level `apiVersion:` or `kind:`. */
const MANIFEST_MARK = /^(?:---[ \t]*\r?$|(apiVersion|kind):)/gm;

/**
 * Where each manifest of a text starts and ends: at `---`, and where a top-level `apiVersion:` or
 * `kind:` comes again (manifests pasted one after another without `---`, a ConfigMap's after a
 * Secret's, must not lend it the Secret's kind). Either may come first, and `kind:` after `data:`.
 */
function manifests(text: string): [start: number, end: number][] {
  const spans: [number, number][] = [];
  let start = 0;
  let seen = new Set<string>();
  MANIFEST_MARK.lastIndex = 0;
  for (let mark = MANIFEST_MARK.exec(text); mark; mark = MANIFEST_MARK.exec(text)) {
    const key = mark[1];
    if (key !== undefined && !seen.has(key)) {
      seen.add(key);
      continue;
    }
    spans.push([start, mark.index]);
    start = key === undefined ? mark.index + mark[0].length : mark.index;
    seen = new Set(key === undefined ? [] : [key]);
  }
  spans.push([start, text.length]);
  return spans;
}
const DATA_ENTRY = /^([ \t]+)["']?[\w.-]{1,253}["']?:[ \t]*(?:(["']?)([^\s"'#|>][^\s"']{0,10000})\2|([|>][+-]?))[ \t]*$/;

/**
 * Every value of a Kubernetes Secret's `data` (base64) or `stringData`, whatever its key is
 * called (`DATABASE_URL: cG9zdGdy…`): gitleaks' kubernetes-secret-yaml. A block scalar (`|`) is
 * redacted through its last line.
 */
function findKubernetesSecretData(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  if (!SECRET_KIND.test(text)) return spans;
  for (const [offset, end] of manifests(text)) {
    const document = text.slice(offset, end);
    if (!SECRET_KIND.test(document)) continue;
    SECRET_DATA.lastIndex = 0;
    for (let data = SECRET_DATA.exec(document); data; data = SECRET_DATA.exec(document)) {
      const indent = data[1]!.length;
      let at = data.index + data[0].length + 1;
      let block: SecretSpan | undefined;
      while (at < document.length) {
        const end = document.indexOf('\n', at) === -1 ? document.length : document.indexOf('\n', at);
        const line = document.slice(at, end).replace(/\r$/, '');
        const lineIndent = /^[ \t]*/.exec(line)![0].length;
        // A Secret's data is a mapping; a list under `data:` is another kind's (an ExternalSecret's `- key: …`).
        if ((line.trim() !== '' && lineIndent <= indent) || (!block && line.trimStart().startsWith('- '))) break;
        const entry = DATA_ENTRY.exec(line);
        if (block && (!entry || entry[1]!.length > block.start)) {
          // A line of the block scalar opened above.
          if (line.trim() !== '') spans.push({ start: offset + at + lineIndent, end: offset + at + line.length });
        } else if (entry) {
          block = entry[4] !== undefined ? { start: entry[1]!.length, end: 0 } : undefined;
          const value = entry[3];
          if (value !== undefined && !isPlaceholderValue(value) && !value.startsWith('{{')) {
            const start = offset + at + line.lastIndexOf(value);
            spans.push({ start, end: start + value.length });
          }
        }
        at = end + 1;
      }
    }
  }
  return spans;
}

const CREDENTIAL_PAIR =
  /(?:[Ll]ogin|LOGIN|[Cc]redentials|CREDENTIALS|[Cc]reds|CREDS)(?:[ \t][^\r\n:]{0,40})?:[ \t]{0,4}[\w.@+-]{1,64}[ \t]{1,4}\/[ \t]{1,4}([^\s"'`]{6,200})/dg;

/**
 * `login for staging: admin / …`, `creds: ci / …`: a user and a password in prose. Only text
 * with ` / ` in it is read. The word starts a word (`relogin` is none), and the password is not
 * a word (`user / password`) or a path.
 */
function findCredentialPairs(text: string): SecretSpan[] {
  if (!text.includes(' / ')) return [];
  const spans: SecretSpan[] = [];
  CREDENTIAL_PAIR.lastIndex = 0;
  for (let match = CREDENTIAL_PAIR.exec(text); match; match = CREDENTIAL_PAIR.exec(text)) {
    const [start, end] = match.indices![1]!;
    const secret = text.slice(start, end);
    if (match.index > 0 && /[\w-]/.test(text[match.index - 1]!)) continue;
    if (isPlaceholderValue(secret) || /^(?:[a-z]+|[A-Z][a-z]+)$/.test(secret) || secret.includes('/')) continue;
    spans.push({ start, end });
  }
  return spans;
}

function sqlWord(word: string): string {
  return `(?:${word}|${word.toUpperCase()})`;
}

export const CREDENTIAL_SYNTAX_RULES: readonly SecretRule[] = [
  {
    id: 'url-password',
    // The password may hold a `#` or a `?` (a browser would read a fragment or a query there; clients and shells do not);
    // the user may be an address (`smtp+tls://notify@acme.dev:…@smtp.host`).
    pattern: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/(?:[^\s:/?#@"'`<>]{1,128}@)?[^\s:/?#@"'`<>]{0,256}:([^\s/"'`<>]{1,256})@/dg,
    gate: { keywords: ['://'] },
    // A token redacted as a URL's user (`https://[REDACTED:github-pat]@…`) is no user and password: redacting twice changes nothing.
    // A password that repeats the user (`user:user@`, `postgres:postgres@localhost`) is a documented default.
    // A port then a query holding an address (`https://host:443?email=a@b.c`) is no password.
    accept: (secret, text, { start }) =>
      acceptNonPlaceholder(secret) && !/\?[\w.-]*=/.test(secret) && !text.endsWith('[REDACTED:', start) && !text.endsWith(`/${secret}:`, start),
  },
  // A token as a URL's user, with no password: shoutrrr's `discord://<token>@<id>`, `https://<token>@host/…`. Not a
  // Sentry DSN's public key (`https://<hex>@o123.ingest.sentry.io/…`), which a browser's script holds.
  {
    id: 'url-password',
    pattern: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/([A-Za-z0-9_.~+-]{20,256})@(?![\w.-]{0,100}sentry|o[0-9]{1,12}\.ingest\.)[\w.-]/dg,
    gate: { keywords: ['://'] },
    accept: (secret) => isHighEntropy(secret) && looksGenerated(secret) && acceptNonPlaceholder(secret),
  },
  // A password as a URL's query parameter: `postgresql:///db?host=…&password=…` (libpq), `?user=u&pwd=…`.
  {
    id: 'url-password',
    pattern: /(?:password|passwd|pwd)=(?<=[?&](?:password|passwd|pwd)=)([^&#\s"'`<>]{1,256})/dg,
    gate: { keywords: ['pass', 'pwd'] },
    accept: acceptNonPlaceholder,
  },
  // .npmrc's `//registry.npmjs.org/:_authToken=…`, whatever the token's shape (a legacy UUID, one cut short).
  {
    id: 'npm-access-token',
    pattern: /_authToken(?<![\w-]_authToken)[ \t]{0,4}=[ \t]{0,4}([\w.+/-]{1,1000}={0,2})/dg,
    gate: { keywords: ['authtoken'] },
    accept: acceptNonPlaceholder,
  },
  // Its keywords start with letters others start with (KEYWORD_GATE in secretPatterns.ts).
  { id: 'dsn-password', find: findDsnPasswords, gate: { keywords: ['tcp', 'x(', '@/', '@(', 'cloudsql'] } },
  { id: 'pgpass-password', find: findPgpassPasswords, gate: { keywords: [':543', ':643', ':*:'] } },
  // A URL's signature is its credential: Azure SAS `sig=`, S3's `X-Amz-Signature` and session token, GCS' `X-Goog-Signature`.
  {
    id: 'url-signature',
    pattern: /(?<=^|[?&;\s"'])(?:sig|signature|x-amz-signature|x-amz-security-token|x-goog-signature)=([A-Za-z0-9%+/=_.~-]{16,4000})/dgi,
    gate: { keywords: ['sig=', 'signature=', 'x-amz-security-token='] },
    accept: acceptNonPlaceholder,
  },
  // A DSN built from parts: Go's `fmt.Sprintf("%s:%s@tcp(%s)/%s", "user", "…", …)`, the password the format's second verb.
  {
    id: 'dsn-password',
    pattern: /printf\(\s{0,4}["`]%[sv]:%[sv]@[^"`\r\n]{0,200}["`]\s{0,4},\s{0,4}(?:"[^"\r\n]{0,100}"|[\w.]{1,60})\s{0,4},\s{0,4}"([^"\r\n]{1,1000})"/dg,
    gate: { keywords: ['printf('] },
    accept: acceptNonPlaceholder,
  },
  // Oracle's `user/password@db`, in a JDBC thin URL or on sqlplus' command line.
  {
    id: 'dsn-password',
    // Its tools take the same: `expdp`, `impdp`, `exp`, `imp`, `sqlldr`, `rman target …`.
    pattern: /(?:thin:|(?<![\w-])(?:sqlplus|expdp|impdp|exp|imp|sqlldr|rman[ \t]{1,4}target)\s{1,4}(?:-[A-Za-z]{1,20}\s{1,4}){0,3})[\w.$#-]{1,64}\/([^\s@/"']{1,256})@/dg,
    gate: { keywords: ['thin:', 'sql', 'exp', 'imp', 'target'] },
    accept: acceptNonPlaceholder,
  },
  {
    id: 'authorization-header',
    pattern: new RegExp(
      // A YAML list item under the header's name too: a VCR cassette's `Authorization:` then `- Basic …`.
      `${anyCasePrefix('authorization')}["']?(?:\\s{0,4}[:=](?:\\s{0,4}|[ \\t]{0,4}\\r?\\n[ \\t]{0,40}-[ \\t]{1,4})["']?|[ \\t]{1,4}["'])(?:Bearer|Basic|Token|bearer|basic|token|Api-Token|api-token|Splunk)\\s{1,4}([A-Za-z0-9._~+/-]{8,8192}=*)` +
        `|(?<![A-Za-z0-9])Bearer\\s{1,4}([A-Za-z0-9._~+/-]{20,8192}=*)`,
      'dg',
    ),
    gate: { keywords: ['authorization', 'bearer'] },
    accept: acceptNonPlaceholder,
  },
  { id: 'kubernetes-secret', find: findKubernetesSecretData, gate: { keywords: ['secret'] } },
  { id: 'credential-pair', find: findCredentialPairs, gate: { keywords: ['login', 'cred'] } },
  // `CREATE USER … IDENTIFIED BY '…'` (Oracle's `"…"` too), `ALTER ROLE … WITH PASSWORD '…'`, SQL Server's `CREATE LOGIN … WITH PASSWORD = N'…'`.
  {
    id: 'sql-password',
    pattern: new RegExp(
      `(?:${sqlWord('identified')}(?:\\s{1,4}${sqlWord('with')}\\s{1,4}\\w{1,40})?\\s{1,4}${sqlWord('by')}` +
        `|${sqlWord('with')}\\s{1,4}(?:${sqlWord('encrypted')}\\s{1,4})?${sqlWord('password')}(?:\\s{0,4}=)?)\\s{1,4}N?(?:'([^'\\r\\n]{1,1000})'|"([^"\\r\\n]{1,1000})")`,
      'dg',
    ),
    gate: { keywords: ['entified', 'pass'] },
    // `WITH PASSWORD` takes a string in single quotes; `"…"` after it is prose quoting one (`created with password "…"`).
    accept: (secret, text, { start }, matchStart) => acceptNonPlaceholder(secret) && !(text[start - 1] === '"' && /^with/i.test(text.slice(matchStart, matchStart + 4))),
  },
  // MySQL's `SET PASSWORD FOR 'u'@'h' = '…'` (or `= PASSWORD('…')`).
  {
    id: 'sql-password',
    pattern: new RegExp(`${sqlWord('set')}\\s{1,4}${sqlWord('password')}\\s{1,4}(?:${sqlWord('for')}\\s{1,4}[^=;\\r\\n]{1,200}?)?=\\s{0,4}(?:${sqlWord('password')}\\()?'([^'\\r\\n]{1,1000})'`, 'dg'),
    gate: { keywords: ['set password'] },
    accept: acceptNonPlaceholder,
  },
  // libcurl's `CURLOPT_USERPWD, "user:…"`.
  { id: 'credential-pair', pattern: /CURLOPT_USERPWD\s{0,4}(?:,|=>)\s{0,4}(?:"[^":\r\n]{0,100}:([^"\r\n]{1,1000})"|'[^':\r\n]{0,100}:([^'\r\n]{1,1000})')/dg, gate: { keywords: ['curlopt_userpwd'] }, accept: acceptNonPlaceholder },
  // A session cookie in a request: `cookie: _app_session=…`, `"cookie": "sessionid=…"`.
  {
    id: 'session-cookie',
    pattern: /(?:[Cc]ookie|COOKIE)["']?\s{0,4}:\s{0,4}["']?(?:[^\r\n"']{0,500}?;\s{0,4})?[\w.-]{0,40}(?:sess|sid|SESS|SID|token|Token|TOKEN|auth|Auth|AUTH|jwt|JWT)[\w.-]{0,40}=([^;"'\s]{16,4096})/dg,
    gate: { keywords: ['cookie'] },
    accept: acceptNonPlaceholder,
  },
  // The same as a client's cookie jar: Python's `requests.get(…, cookies={"sessionid": "…"})`, `"cookies": {"_app_session": "…"}`.
  {
    id: 'session-cookie',
    pattern: /cookies["']?\s{0,4}[=:]\s{0,4}\{[^{}]{0,500}?["'][\w.-]{0,40}(?:sess|sid|SESS|SID|token|Token|TOKEN|auth|Auth|AUTH|jwt|JWT)[\w.-]{0,40}["']\s{0,4}:\s{0,4}["']([^"'\s]{16,4096})["']/dg,
    gate: { keywords: ['cookie'] },
    accept: acceptNonPlaceholder,
  },
  // A `user:password` pair encoded for a Basic header: `btoa("svc:…")`, `b64encode(b"svc:…")`, `Buffer.from("svc:…")`;
  // Haskell's `applyBasicAuth "user" "…"`.
  {
    id: 'credential-pair',
    pattern: /(?:btoa|b64encode|Buffer\.from|EncodeToString|encodeToString|GetBytes)\(\s{0,4}(?:b|\[\]byte\()?["'`][\w.@\\-]{1,100}:([^"'`\s$]{4,1000})["'`]/dg,
    gate: { keywords: ['btoa(', 'b64encode(', 'buffer.from(', 'encodetostring(', 'getbytes('] },
    accept: acceptNonPlaceholder,
  },
  // The same pair held in a variable first: PowerShell's `$pair = "svc:…"` then `GetBytes($pair)`, `btoa(creds)`.
  { id: 'credential-pair', find: findEncodedPairVariables, gate: { keywords: ['btoa(', 'b64encode(', 'buffer.from(', 'encodetostring(', 'getbytes('] } },
  // A Go DSN built with `+`: `user + ":" + "…" + "@tcp(" + host`.
  { id: 'dsn-password', pattern: /":"\s{0,4}\+\s{0,4}"([^"\r\n]{1,256})"\s{0,4}\+\s{0,4}"@(?:tcp6?\(|unix\(|\/)/dg, gate: { keywords: ['"@tcp(', '"@unix(', '"@/'] }, accept: acceptNonPlaceholder },
  // JMeter's argument named for a secret, its value before or after its name within the `elementProp`.
  {
    id: 'xml-secret',
    pattern: /<elementProp name="[^"]{1,100}" elementType="HTTPArgument">(?:(?!<\/elementProp>)[^]){0,600}?<stringProp name="Argument\.value">([^<]{1,1000})<\/stringProp>/dg,
    gate: { keywords: ['argument.value'] },
    accept: (secret, text, _span, matchStart) => holdsSecret(/<elementProp name="([^"]{1,100})"/.exec(text.slice(matchStart))?.[1] ?? '') && !isPlaceholderValue(secret),
  },
  // JMeter's HTTP argument: `<stringProp name="Argument.name">password</stringProp>` then its `Argument.value`.
  {
    id: 'xml-secret',
    pattern: /<stringProp name="Argument\.name">[^<]{1,100}<\/stringProp>\s{0,40}<stringProp name="Argument\.value">([^<]{1,1000})<\/stringProp>/dg,
    gate: { keywords: ['argument.value'] },
    accept: (secret, text, span, matchStart) => {
      const name = /Argument\.name">([^<]{1,100})</.exec(text.slice(matchStart, span.start))?.[1] ?? '';
      return holdsSecret(name) && !isPlaceholderValue(secret);
    },
  },
  // A Wi-Fi profile's key (`netsh wlan export profile … key=clear`): `<keyMaterial>…</keyMaterial>`.
  { id: 'xml-secret', pattern: /<keyMaterial>([^<]{1,1000})<\/keyMaterial>/dg, gate: { keywords: ['keymaterial'] }, accept: acceptNonPlaceholder },
  // A UI test typing into a password field: Cypress' `cy.get("#password").type("…")`, Playwright's `fill("#password", "…")` and
  // `getByLabel("Password").fill("…")`, Detox's `element(by.id("password")).typeText("…")`, Selenium's `send_keys`/`sendKeys`.
  {
    id: 'positional-password',
    pattern:
      /(?:(?:(?:get|id|ByLabel|ByPlaceholder|ByTestId)\(|(?:ID|NAME),)\s{0,4}(?:"[^"\r\n]{0,60}[Pp]ass[^"\r\n]{0,60}"|'[^'\r\n]{0,60}[Pp]ass[^'\r\n]{0,60}')\s{0,4}\)(?:\s{0,4}\))?\s{0,4}\.(?:type|typeText|replaceText|fill|sendKeys|send_keys)\(|fill\(\s{0,4}(?:"[^"\r\n]{0,60}pass[^"\r\n]{0,60}"|'[^'\r\n]{0,60}pass[^'\r\n]{0,60}')\s{0,4},)\s{0,4}["'`]([^"'`\r\n]{1,200})["'`]/dg,
    gate: { keywords: ['type(', 'fill(', 'text(', 'keys('] },
    accept: acceptNonPlaceholder,
  },
  // Kaggle's `kaggle.json`: `{"username":"…","key":"<32 hex digits>"}` (a bare `key` is a lookup elsewhere; here, beside the user, the API key).
  { id: 'credential-pair', pattern: /"username"\s{0,4}:\s{0,4}"[^"\r\n]{1,100}"\s{0,4},\s{0,4}"key"\s{0,4}:\s{0,4}"([A-Za-z0-9]{20,100})"/dg, gate: { keywords: ['key'] }, accept: acceptNonPlaceholder },
  // A PEM block's pass phrase in Go: `x509.DecryptPEMBlock(block, []byte("…"))`, `EncryptPEMBlock(rand, type, der, []byte("…"), alg)`.
  {
    id: 'positional-password',
    pattern: /(?:DecryptPEMBlock\([^,()\r\n]{1,100}|EncryptPEMBlock\((?:[^,()\r\n]{1,100},){3}[^,()\r\n]{0,100}?),\s{0,4}\[\]byte\(\s{0,4}"([^"\r\n]{1,1000})"\s{0,4}\)/dg,
    gate: { keywords: ['pemblock('] },
    accept: acceptNonPlaceholder,
  },
  { id: 'credential-pair', pattern: /applyBasicAuth\s{1,4}"[^"\r\n]{1,100}"\s{1,4}"([^"\r\n]{1,1000})"/dg, gate: { keywords: ['applybasicauth'] }, accept: acceptNonPlaceholder },
  // A session cookie in a Netscape cookie jar (curl's `-c`): domain, flag, path, secure, expiry, name, value, a tab apart.
  {
    id: 'session-cookie',
    pattern: /^(?:#HttpOnly_)?[^\s#][^\t\r\n]{0,253}\t(?:TRUE|FALSE)\t[^\t\r\n]{1,1000}\t(?:TRUE|FALSE)\t[0-9]{1,12}\t[\w.-]{0,40}(?:sess|sid|SESS|SID|token|Token|TOKEN|auth|Auth|AUTH|jwt|JWT)[\w.-]{0,40}\t([^\t\r\n]{16,4096})\r?$/dgm,
    gate: { keywords: ['true\t'] },
    accept: acceptNonPlaceholder,
  },
  // A token as a URL's query parameter: `?access_token=…`, `&api_key=…` (drawn values only: `?key=home` is no secret).
  {
    id: 'url-token',
    pattern: /[?&](?:access_token|token|api_key|apikey|api-key|key|secret|client_secret|auth|sig_token)=([^&#\s"'`<>]{16,1024})/dg,
    gate: { keywords: ['token=', 'key=', 'secret=', 'auth='] },
    accept: (secret) => acceptNonPlaceholder(secret) && looksGenerated(decodeURIComponentSafely(secret)),
  },
  // OpenWeatherMap's API key as its URLs take it: `?q=Berlin&appid=<32 hex>` (an `appid` of other shapes is an app's public id).
  { id: 'url-token', pattern: /[?&]appid=([0-9a-f]{32})(?![\w-])/dg, gate: { keywords: ['appid='] } },
  // A password as a URL's query parameter under a longer name (Snowflake's `private_key_file_pwd=`); ODBC's and
  // ADO.NET's braces around a value holding `;` (`Password={…;…}`).
  {
    id: 'url-token',
    pattern: /[?&][\w.-]{0,40}(?:_pwd|_password|_passwd|_passphrase)=([^&#\s"'`<>]{4,1024})/dg,
    gate: { keywords: ['pwd=', 'password=', 'passwd=', 'passphrase='] },
    accept: acceptNonPlaceholder,
  },
  {
    id: 'dsn-password',
    pattern: /(?<![\w-])(?:[Pp]assword|PASSWORD|[Pp]wd|PWD)[ \t]{0,4}=[ \t]{0,4}\{([^{}\r\n]{1,1000})\}/dg,
    gate: { keywords: ['pass', 'pwd'] },
    accept: acceptNonPlaceholder,
  },
  // PowerShell: `ConvertTo-SecureString "…" -AsPlainText`, its switches first or after.
  {
    id: 'secure-string',
    pattern: /ConvertTo-SecureString(?:\s{1,4}-(?:AsPlainText|Force))*\s{1,4}(?:-String\s{1,4})?(?:"([^"\r\n]{1,1000})"|'([^'\r\n]{1,1000})')/dgi,
    gate: { keywords: ['securestring'] },
    accept: acceptNonPlaceholder,
  },
  // .netrc: `machine host login user password …`, on one line or several.
  {
    id: 'netrc-password',
    pattern: /(?<![\w-])machine[ \t]{1,20}\S{1,200}(?:\s{1,20}(?:login|account|port)[ \t]{1,20}\S{1,200}){0,3}\s{1,20}password[ \t]{1,20}(\S{1,1000})/dg,
    gate: { keywords: ['pass'] },
    accept: acceptNonPlaceholder,
  },
];

function decodeURIComponentSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
