/**
 * The secret shapes Engram removes before anything is stored, modelled on gitleaks' default rules.
 * Every pattern is built to run in linear time: fixed prefixes, bounded repeats, and no repeat
 * that can split the same text two ways, because memories can hold megabyte-long lines.
 */

/** A half-open span of the scanned text that holds a secret. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * What every match of a rule contains, cheap to look for before the rule runs (gitleaks'
 * keywords): one of some lowercase strings, or, for shapes with no fixed part, a run of at least
 * `tokenRun` characters from [A-Za-z0-9_-]. Most text holds neither, and skips the rule.
 */
export type RuleGate = { readonly keywords: readonly string[] } | { readonly tokenRun: number };

export interface PatternRule {
  readonly id: string;
  /**
   * Global regex with the `d` flag. The first capture group that took part in the match is the
   * secret (so key names and URL hosts stay readable); without groups the whole match is.
   */
  readonly pattern: RegExp;
  readonly gate: RuleGate;
  /** Rejects look-alikes the pattern cannot rule out by itself, e.g. `token = getToken()`. */
  readonly accept?: (secret: string, text: string, span: SecretSpan) => boolean;
}

export interface ScanRule {
  readonly id: string;
  /** For shapes a regex cannot find in linear time, such as multi-line PEM blocks. */
  readonly find: (text: string) => SecretSpan[];
  readonly gate: RuleGate;
}

export type SecretRule = PatternRule | ScanRule;

/** Matches `word`, `Word` and `WORD`, so the case-sensitive boundary after it still works. */
function anyCase(word: string): string {
  return `(?:${word}|${word[0]!.toUpperCase()}${word.slice(1)}|${word.toUpperCase()})`;
}

/** In every match of KEYWORD, lowercased: the API, access and private keys all end in `key`. */
const SENSITIVE_KEYWORD_GATE = ['passw', 'pwd', 'secret', 'token', 'auth', 'key'];

const SENSITIVE_KEYWORD = [
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'auth',
  `${anyCase('api')}[_-]?${anyCase('key')}`,
  `${anyCase('access')}[_-]?${anyCase('key')}`,
  `${anyCase('private')}[_-]?${anyCase('key')}`,
]
  .map((word) => (word.includes('(?:') ? word : anyCase(word)))
  .join('|');

/**
 * A keyword ends where a new word starts, so `secretary`, `tokenizer` and `author` are not keys
 * but `dbPassword`, `GITHUB_TOKEN`, `client_secret` and `secrets` are.
 */
const KEYWORD = `(?:${SENSITIVE_KEYWORD})(?:s|S)?(?![a-z])`;

/** The rest of a key name, its closing quote, and an assignment operator of any common language. */
const ASSIGNED = `[\\w.-]{0,40}["'\`]?\\s{0,4}(?:=>|:=|\\?=|\\+=|=(?!=)|:(?!:))\\s{0,4}`;

const QUOTED_VALUE = `"([^"\\r\\n]{1,1000})"|'([^'\\r\\n]{1,1000})'|\`([^\`\\r\\n]{1,1000})\``;
const UNQUOTED_VALUE = `([^\\s"'\`,;(){}\\[\\]]{8,1000})`;

const SENSITIVE_KEY_NAME = new RegExp(`^[\\w.-]*(?:${KEYWORD})[\\w.-]*$`);

/** True for a key name such as `apiKey`, `DB_PASSWORD` or `client_secret`. */
export function isSensitiveKeyName(name: string): boolean {
  return name.length <= 100 && SENSITIVE_KEY_NAME.test(name);
}

const PLACEHOLDER_WORDS = /^(?:changeme|change[_-]?me|placeholder|redacted|example|dummy|todo|tbd|null|none|nil|undefined|true|false)$/i;

/**
 * Values that stand for a secret without being one: empty, `${TOKEN}`, `$TOKEN`, `%TOKEN%`,
 * `{{ token }}`, `<your-token>`, `your_api_key_here`, `xxxx`, `****`, `changeme`, and text already
 * redacted by Engram (so redaction is idempotent).
 */
export function isPlaceholderValue(value: string): boolean {
  const v = value.trim();
  return (
    v.length === 0 ||
    /^(?:\$|%|\{\{|<.*>$|\[REDACTED:)/.test(v) ||
    /^(?:your|my)[_-]/i.test(v) ||
    /^(.)\1*$/.test(v) ||
    /^x{3,}$/i.test(v.replace(/[-_]/g, '')) ||
    PLACEHOLDER_WORDS.test(v)
  );
}

/**
 * An unquoted value that reads as code rather than data: a call (`getToken()`), a property path
 * (`process.env.API_KEY`, `cfg.Token`), or a digit-free identifier or type in camel, Pascal or
 * constant case (`string`, `AccessToken`, `DEFAULT_TOKEN`). Random letters are half capitals.
 */
function isCodeReference(value: string, next: string | undefined): boolean {
  if (next === '(' || /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return true;
  if (!/^[A-Za-z_$]+$/.test(value)) return false;
  const capitals = value.replace(/[^A-Z]/g, '').length;
  return value === value.toUpperCase() || capitals <= value.length / 4;
}

function acceptAssignedValue(secret: string, text: string, { start, end }: SecretSpan): boolean {
  const quoted = /["'`]/.test(text[start - 1] ?? '') && text[start - 1] === text[end];
  return !isPlaceholderValue(secret) && (quoted || !isCodeReference(secret, text[end]));
}

function acceptNonPlaceholder(secret: string): boolean {
  return !isPlaceholderValue(secret);
}

/** `(?<!…)` and `(?!…)` guards so a token is not found inside a longer word. */
function token(body: string, chars = 'A-Za-z0-9_-'): RegExp {
  return new RegExp(`(?<![${chars}])(?:${body})(?![${chars}])`, 'gd');
}

const PEM_BEGIN = /-----BEGIN ([A-Z0-9]{1,20} ){0,2}PRIVATE KEY( BLOCK)?-----/g;
/**
 * Whole lines of base64, PEM headers (`Proc-Type: 4,ENCRYPTED`) or nothing, ended by real or
 * JSON-escaped newlines. Each line must end where it is tried, so the scan never backtracks far.
 */
const PEM_LINES = /(?:[ \t]*(?:(?:[A-Za-z0-9+/=]+|[A-Za-z-]{1,30}: [^\r\n\\]{0,200})[ \t]*)?(?:\r?\n|\\r?\\n|$))*/y;
const PEM_END = /[ \t]*-----END ([A-Z0-9]{1,20} ){0,2}PRIVATE KEY( BLOCK)?-----/y;

/**
 * PEM private-key blocks, BEGIN through END. A block cut short (no END after its key lines) is
 * redacted through its last line of key material, since a partial key is still a leak.
 */
function findPrivateKeyBlocks(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  PEM_BEGIN.lastIndex = 0;
  for (let begin = PEM_BEGIN.exec(text); begin; begin = PEM_BEGIN.exec(text)) {
    PEM_LINES.lastIndex = begin.index + begin[0].length;
    PEM_LINES.test(text);
    PEM_END.lastIndex = PEM_LINES.lastIndex;
    let end = PEM_END.test(text) ? PEM_END.lastIndex : PEM_LINES.lastIndex;
    if (end === PEM_LINES.lastIndex) while (end > begin.index && /\s/.test(text[end - 1]!)) end--;
    spans.push({ start: begin.index, end });
    PEM_BEGIN.lastIndex = Math.max(end, PEM_BEGIN.lastIndex);
  }
  return spans;
}

/** Specific shapes first: when spans overlap, the earlier rule names the redaction. */
export const SECRET_RULES: readonly SecretRule[] = [
  {
    id: 'gcp-service-account-key',
    pattern: /"private_key"\s{0,4}:\s{0,4}"(-----BEGIN[^"]{0,10000})"/dg,
    gate: { keywords: ['"private_key"'] },
  },
  { id: 'private-key', find: findPrivateKeyBlocks, gate: { keywords: ['private key'] } },
  {
    id: 'aws-access-token',
    pattern: token('(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}', 'A-Za-z0-9'),
    gate: { keywords: ['a3t', 'akia', 'asia', 'abia', 'acca'] },
  },
  {
    id: 'aws-secret-access-key',
    pattern: new RegExp(`${anyCase('aws')}[\\w.-]{0,20}${anyCase('secret')}${ASSIGNED}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])`, 'dg'),
    gate: { keywords: ['aws'] },
  },
  { id: 'gcp-api-key', pattern: token('AIza[A-Za-z0-9_-]{35}'), gate: { keywords: ['aiza'] } },
  {
    id: 'azure-storage-key',
    pattern: /(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{40,100}={0,2})/dg,
    gate: { keywords: ['accountkey=', 'sharedaccesskey='] },
  },
  { id: 'github-pat', pattern: token('ghp_[A-Za-z0-9]{36,255}'), gate: { keywords: ['ghp_'] } },
  { id: 'github-oauth', pattern: token('gho_[A-Za-z0-9]{36,255}'), gate: { keywords: ['gho_'] } },
  { id: 'github-app-token', pattern: token('(?:ghu|ghs)_[A-Za-z0-9]{36,255}'), gate: { keywords: ['ghu_', 'ghs_'] } },
  { id: 'github-refresh-token', pattern: token('ghr_[A-Za-z0-9]{36,255}'), gate: { keywords: ['ghr_'] } },
  { id: 'github-fine-grained-pat', pattern: token('github_pat_[A-Za-z0-9_]{82,255}'), gate: { keywords: ['github_pat_'] } },
  { id: 'gitlab-pat', pattern: token('glpat-[A-Za-z0-9_-]{20,255}'), gate: { keywords: ['glpat-'] } },
  { id: 'slack-token', pattern: token('(?:xox[abeoprs]|xapp)-[A-Za-z0-9-]{10,255}'), gate: { keywords: ['xox', 'xapp-'] } },
  {
    id: 'slack-webhook-url',
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9+/_-]{20,200})/dg,
    gate: { keywords: ['hooks.slack.com/'] },
  },
  {
    id: 'stripe-access-token',
    pattern: token('(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,255}'),
    gate: { keywords: ['k_live_', 'k_test_', 'k_prod_'] },
  },
  // `SK`/`AC` and 32 hex digits: a two-letter keyword would let nearly every text through.
  { id: 'twilio-api-key', pattern: token('SK[0-9a-fA-F]{32}', 'A-Za-z0-9'), gate: { tokenRun: 34 } },
  { id: 'twilio-account-sid', pattern: token('AC[0-9a-f]{32}', 'A-Za-z0-9'), gate: { tokenRun: 34 } },
  { id: 'sendgrid-api-token', pattern: token('SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}'), gate: { keywords: ['sg.'] } },
  // `key-` and 32 hex digits, or three runs of hex digits joined by dashes: 36 at least.
  { id: 'mailgun-api-key', pattern: token('(?:pub)?key-[0-9a-f]{32}|[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}'), gate: { tokenRun: 36 } },
  { id: 'npm-access-token', pattern: token('npm_[A-Za-z0-9]{36,255}'), gate: { keywords: ['npm_'] } },
  { id: 'pypi-upload-token', pattern: token('pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}'), gate: { keywords: ['pypi-'] } },
  { id: 'anthropic-api-key', pattern: token('sk-ant-[A-Za-z0-9_-]{20,300}'), gate: { keywords: ['sk-ant-'] } },
  {
    id: 'openai-api-key',
    pattern: token('sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,300}|sk-[A-Za-z0-9]{20,300}'),
    gate: { keywords: ['sk-'] },
  },
  { id: 'huggingface-access-token', pattern: token('hf_[A-Za-z0-9]{30,40}'), gate: { keywords: ['hf_'] } },
  { id: 'digitalocean-token', pattern: token('do[opr]_v1_[a-f0-9]{64}'), gate: { keywords: ['_v1_'] } },
  { id: 'shopify-token', pattern: token('shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}'), gate: { keywords: ['shp'] } },
  // A letter and at least 23 more before the first dot.
  {
    id: 'discord-bot-token',
    pattern: token('[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}', 'A-Za-z0-9_.-'),
    gate: { tokenRun: 24 },
  },
  { id: 'telegram-bot-api-token', pattern: token('[0-9]{5,16}:A[A-Za-z0-9_-]{34}', 'A-Za-z0-9_:-'), gate: { keywords: [':a'] } },
  { id: 'databricks-api-token', pattern: token('dapi[a-f0-9]{32}(?:-[0-9])?', 'A-Za-z0-9'), gate: { keywords: ['dapi'] } },
  {
    id: 'heroku-api-key',
    pattern: new RegExp(
      `${anyCase('heroku')}${ASSIGNED}["']?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})|(?<![\\w-])(HRKU-[A-Za-z0-9_-]{20,100})`,
      'dg',
    ),
    gate: { keywords: ['heroku', 'hrku-'] },
  },
  {
    id: 'jwt',
    pattern: token('eyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}', 'A-Za-z0-9_.-'),
    gate: { keywords: ['eyj'] },
  },
  {
    id: 'url-password',
    pattern: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/?#@"'`<>]{0,256}:([^\s/?#"'`<>]{1,256})@/dg,
    gate: { keywords: ['://'] },
    accept: acceptNonPlaceholder,
  },
  {
    id: 'authorization-header',
    pattern: new RegExp(
      `${anyCase('authorization')}["']?\\s{0,4}[:=]\\s{0,4}["']?(?:Bearer|Basic|Token|bearer|basic|token)\\s{1,4}([A-Za-z0-9._~+/-]{8,8192}=*)` +
        `|(?<![A-Za-z0-9])Bearer\\s{1,4}([A-Za-z0-9._~+/-]{20,8192}=*)`,
      'dg',
    ),
    gate: { keywords: ['authorization', 'bearer'] },
    accept: acceptNonPlaceholder,
  },
  {
    id: 'generic-assignment',
    pattern: new RegExp(`${KEYWORD}${ASSIGNED}(?:${QUOTED_VALUE}|${UNQUOTED_VALUE})`, 'dg'),
    gate: { keywords: SENSITIVE_KEYWORD_GATE },
    accept: acceptAssignedValue,
  },
];

export const USER_PATTERN_RULE_ID = 'user-pattern';
