/**
 * Building blocks of the secret rules' regexes. Each one runs in linear time: fixed prefixes,
 * bounded repeats, and no repeat that can split the same text two ways, because memories can
 * hold megabyte-long lines.
 */

/** Matches `word`, `Word` and `WORD`, each ending where a new word starts (`tokenizer` is not `token`). */
function anyCase(word: string): string {
  const capitalized = `${word[0]!.toUpperCase()}${word.slice(1)}`;
  return `(?:${word}(?![a-z])|${capitalized}(?![a-z])|${word.toUpperCase()}(?![A-Z]))`;
}

/** The same three cases, with nothing required after: for a word that is followed by more of a pattern. */
export function anyCasePrefix(word: string): string {
  return `(?:${word}|${word[0]!.toUpperCase()}${word.slice(1)}|${word.toUpperCase()})`;
}

/** `(?<!…)` and `(?!…)` guards so a token is not found inside a longer word. */
export function token(body: string, chars = 'A-Za-z0-9_-'): RegExp {
  return new RegExp(`(?<![${chars}])(?:${body})(?![${chars}])`, 'gd');
}

/**
 * The words that make a key name sensitive. `pass` must start a word (`DB_PASS`, `dbPass`, not
 * `bypass` or `compass`); the others may end a longer one (`dbPassword`, `GITHUB_TOKEN`).
 */
const SENSITIVE_WORDS = [
  anyCase('passwords'),
  anyCase('password'),
  anyCase('passwd'),
  anyCase('passphrase'),
  // Letters first, then the look-behind: see WEAK_KEYWORD.
  `${anyCase('pass')}(?<![A-Za-z]....)|Pass(?<=[a-z]Pass)(?![a-z])`,
  anyCase('pwd'),
  // Short forms earlybird's keyword list knows: `pw=`, `db_pw`, `pword`, `passwrd`; `pw` starts a word.
  // Not a longer word's start either (`pwClock`), nor a part of a CSS name (Playwright's `x-pw-tool-item`).
  `(?:pw(?![A-Za-z-])|PW(?![A-Z-]))(?<![A-Za-z]..)|Pw(?<=[a-z]Pw)(?![A-Za-z-])`,
  anyCase('pword'),
  anyCase('passwrd'),
  // Redis's `requirepass` and `masterauth`: one word, where `pass` alone must start one.
  anyCase('requirepass'),
  // A Wi-Fi network's pre-shared key: wpa_supplicant's `psk="…"`, `WIFI_PSK=…`.
  anyCase('psk'),
  // A password's name in other languages (`mot_de_passe = …`, `contraseña: …`), each holding a gate's word or starting as one does.
  anyCase('mot_de_passe'),
  anyCase('motdepasse'),
  anyCase('passwort'),
  anyCase('kennwort'),
  anyCase('contrasena'),
  anyCase('contraseña'),
  anyCase('senha'),
  anyCase('wachtwoord'),
  anyCase('hasło'),
  anyCase('haslo'),
  anyCase('sifre'),
  anyCase('şifre'),
  // LDAP binds' passwords: Dovecot's `dnpass`, ldap.conf's `bindpw`, slapd's `rootpw` (one word, where `pass` and `pw` alone must start one).
  anyCase('dnpass'),
  anyCase('bindpw'),
  anyCase('rootpw'),
  // An LDAP bind's password by another name: Keycloak's `bindCredential`, `bind_credential`.
  '(?:bind|Bind|BIND)[_-]?(?:credential|Credential|CREDENTIAL)s?(?![a-z])',
  // A password's name as one word: NixOS' `adminpass`, `dbpass`, `rootpass` (`pass` alone must start a word).
  '(?:admin|db|root|user|smtp|mail|ldap|bind|redis|mysql|sql|ftp|api)pass(?![a-z])',
  // SSSD's `ldap_default_authtok` (an authentication token: the bind's password).
  anyCase('authtok'),
  anyCase('secrets'),
  anyCase('secret'),
  // A misspelling detect-secrets' keyword list catches too: `char secrete[25] = …`.
  anyCase('secrete'),
  anyCase('tokens'),
  anyCase('token'),
  anyCase('authorization'),
  anyCase('auth'),
  ...['api', 'access', 'private'].map((word) => `${anyCasePrefix(word)}[_-]?${anyCase('key')}`),
];

/** One sensitive word, in any of the cases a key name is written in. */
export const KEYWORD = `(?:${SENSITIVE_WORDS.join('|')})`;

/**
 * Words that make a key name sensitive only when its value looks generated (gitleaks' generic
 * rule, which weighs a value's entropy): `key` ending a longer name (`encryption_key`,
 * `signingKey`, `MASTER_KEY`, `primaryMasterKey`), `key1`/`key2` (Azure's key lists), `pat`
 * ending one (`AZURE_DEVOPS_EXT_PAT`) and `creds`/`credentials` (which more often hold an
 * object, a flag or an id: `credentials: 'include'`, `credentialsId`).
 * `cacheKey = "user:42"` stays as written.
 */
export const WEAK_KEYWORD =
  // Each alternative starts with its letters and looks behind after them: a regex that starts with a
  // look-behind is tried at every character, one that starts with letters only where they are.
  '(?:Key(?<=[a-z0-9]Key)(?![a-z])|(?:key|Key)(?<=[A-Za-z0-9][_.-]...)(?![a-z])|KEY(?<=[A-Z0-9][_.-]?KEY)(?![A-Z])' +
  '|(?:key|Key|KEY)[12](?<![A-Za-z]....)(?![\\w])' +
  // A personal access token: `AZURE_DEVOPS_EXT_PAT`, `gitlab_pat`, `githubPat`.
  '|[_-](?:PAT|pat)(?![A-Za-z])|Pat(?<=[a-z]Pat)(?![a-z])' +
  // Etsy's `ETSY_KEYSTRING`, `keystring`.
  '|(?:key|Key)(?:string|String)(?![a-z])|KEYSTRING(?![A-Z])' +
  // Credentials, alone or ending a name: `creds = …`, `"credentials": "…"`, `DB_CREDS`, `credential="…"`.
  '|[Cc]red(?:ential)?s?(?![a-z])|CRED(?:ENTIAL)?S?(?![A-Z]))';

/**
 * Lowercase strings at least one of which is in every match of KEYWORD and WEAK_KEYWORD (the
 * rules' gate; `pat` with what follows a key name, as `path` and `pattern` are common). All
 * rules' keywords make one alternation that every text is scanned with; V8 runs it ~1.5× slower
 * once they start with more than about 15 different characters (measured), so a rule's
 * keywords start, where they can, with a letter others already start with (`entified`, not
 * `identified`).
 */
export const KEYWORD_GATE = ['pass', 'pw', 'psk', 'kennwort', 'contrase', 'senha', 'achtwoord', 'ifre', 'hasło', 'haslo', 'secret', 'token', 'auth', 'key', 'cred', ...['=', ':', '"', "'", ' '].map((after) => `pat${after}`)];

/**
 * The rest of a key name, an array's brackets (C's `char secret[25] =`, PHP's `$password[] =`), its
 * closing quote or bracket (`env["TOKEN"] =`), and an assignment operator of any common language.
 * The value starts on the same line: `DB_PASSWORD=` then a line break has none (`.env.example`).
 */
export const ASSIGNED =
  `[\\w.-]{0,40}(?:\\[[0-9]{0,6}\\])?(?:\\\\{0,7}["'\`])?\\]?` +
  // Operators aligned in a column (`:password       => '…'`), values too (Go's `APIKey:       "…"`), and a table's dashes;
  // Chinese and Japanese write the colon full width (`AccessKeySecret：…`).
  `(?:(?:\\s{0,4}|[ \\t]{5,32})(?:=>|:{1,3}=|[?+.]=|=(?!=)|:(?!:)|：)|[ \\t]{1,32}-{3,8}(?=[ \\t]))(?:[ \\t]{0,4}|[ \\t]{5,32})`;

/**
 * A value between backslash-escaped quotes: JSON written inside a string (`{\\"password\\":\\"…\\"}`
 * in a log line), one to three levels deep. Escapes other than of a quote or backslash may sit inside.
 * Two capture groups, one a kind of quote.
 */
export const ESCAPED_QUOTED_VALUE =
  `(?:\\\\{1,7}"((?:[^"\\\\\\r\\n]|\\\\[^"\\\\\\r\\n]){1,1000})\\\\{1,7}"` +
  // Single quotes escaped the same way: JavaScript built as a string (`clientSecret: \\'…\\'`).
  `|\\\\{1,7}'((?:[^'\\\\\\r\\n]|\\\\[^'\\\\\\r\\n]){1,1000})\\\\{1,7}')`;

/** A quoted value: one capture group per kind of quote. Up to 4 KB: an AWS session token is over 1,000 characters. */
export const QUOTED_VALUE = `"([^"\\r\\n]{1,4096})"|'([^'\\r\\n]{1,4096})'|\`([^\`\\r\\n]{1,4096})\``;

/** The same, a backslash escaping the character after it (a quote among them), as JSON, JavaScript and Python read it. */
export const QUOTED_VALUE_WITH_ESCAPES =
  `"((?:[^"\\\\\\r\\n]|\\\\[^\\r\\n]){1,4096})"|'((?:[^'\\\\\\r\\n]|\\\\[^\\r\\n]){1,4096})'|\`([^\`\\r\\n]{1,4096})\``;

// Full-width punctuation ends a value as its ASCII kin do (`AccessKeySecret：…，AccessKeyId …`).
const BARE_CHAR = `[^\\s"'\`,;(){}\\[\\]，；。、]`;
/**
 * An unquoted value: what ends a value in code and config (space, quote, separator, closing
 * bracket) ends it; balanced parentheses may sit inside (`Pa(ss)w0rd`). Eight characters at
 * least, so short words are not taken for secrets.
 */
export const UNQUOTED_VALUE = `((?:${BARE_CHAR}|\\(${BARE_CHAR}{0,100}\\)){8,1000})`;

/**
 * String literals of languages whose quotes are not `"`, `'` or a backtick alone: triple quotes
 * (Python, Dart, Kotlin, Scala, Groovy, Julia, C#'s raw strings) on one line, Lua's long brackets
 * (`[==[…]==]`), OCaml's quoted strings (`{|…|}`), Elixir's sigils (`~s(…)`), Nix's `''…''`.
 */
export const LANGUAGE_LITERAL =
  `'''([^\\r\\n]{1,1000}?)'''|"""([^\\r\\n]{1,1000}?)"""` +
  `|\\[\\[([^\\r\\n]{1,1000}?)\\]\\]|\\[=\\[([^\\r\\n]{1,1000}?)\\]=\\]|\\[==\\[([^\\r\\n]{1,1000}?)\\]==\\]|\\[===\\[([^\\r\\n]{1,1000}?)\\]===\\]` +
  `|\\{[a-z_]{0,10}\\|([^|\\r\\n]{1,1000})\\|[a-z_]{0,10}\\}` +
  `|~[sScC](?:\\(([^)\\r\\n]{1,1000})\\)|\\[([^\\]\\r\\n]{1,1000})\\]|\\{([^}\\r\\n]{1,1000})\\}|"([^"\\r\\n]{1,1000})"|'([^'\\r\\n]{1,1000})'|\\|([^|\\r\\n]{1,1000})\\||\\/([^/\\r\\n]{1,1000})\\/|<([^>\\r\\n]{1,1000})>)` +
  `|''([^'\\r\\n]{1,1000}?)''(?!')`;

/** A command-line argument: quoted, or up to the next space or shell operator. */
// Up to 4,096 characters: an ECR login token passed to `docker login -p` runs past 2,000.
export const ARGUMENT_VALUE = `"([^"\\r\\n]{1,4096})"|'([^'\\r\\n]{1,4096})'|([^\\s"'\`;&|]{1,4096})`;

/** Text up to the end of one shell command, where its later options are looked for. */
export const REST_OF_COMMAND = `[^\\r\\n;&|]{0,300}?`;

/**
 * What the gates' keyword scan (redact.ts) saw of the last text: the text lowercased, and where
 * a `key`, `pat` or `cred` keyword starts in it. The weak-word scan (keyedSecrets.ts) reads the same
 * text next and would otherwise lowercase and search it again.
 */
export interface GateScan {
  readonly text: string;
  readonly lower: string;
  readonly keyOrPat: number[];
}

let lastScan: GateScan | undefined;

export function recordGateScan(scan: GateScan): void {
  lastScan = scan;
}

/**
 * The gates' scan of `text`, when it was the last text scanned and its positions are the
 * text's (lowercasing a few non-ASCII letters changes the length).
 */
export function gateScanOf(text: string): GateScan | undefined {
  return lastScan?.text === text && lastScan.lower.length === text.length ? lastScan : undefined;
}
