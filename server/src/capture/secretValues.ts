import { KEYWORD } from './secretPatterns';
import type { SecretSpan } from './secretRules';

/**
 * Whether a value found under a secret-sounding key is a secret. Names of secrets are not
 * secrets: `secret_name = "prod/orders/db"`, `token_type = "bearer"`, `apiKeyHeader =
 * "X-Api-Key"`; nor are placeholders (`${TOKEN}`, `<your-key>`, `changeme`) or code
 * (`getToken()`, `process.env.API_KEY`).
 */

const SENSITIVE_KEY_NAME = new RegExp(`^[\\w.-]*${KEYWORD}[\\w.-]*$`);

/** True for a key name such as `apiKey`, `DB_PASSWORD` or `client_secret`. */
export function isSensitiveKeyName(name: string): boolean {
  return name.length <= 100 && SENSITIVE_KEY_NAME.test(name);
}

/** Words that, after the sensitive one, make a key describe a secret rather than hold it. */
const METADATA_WORDS = new Set([
  // What it is called and where it is.
  'name', 'names', 'type', 'types', 'kind', 'header', 'headers', 'path', 'paths', 'file', 'files', 'filename', 'dir', 'url', 'uri',
  'endpoint', 'env', 'var', 'variable', 'field', 'param', 'parameter', 'label', 'ref', 'arn', 'location', 'prefix', 'source',
  'column', 'attribute', 'property', 'option', 'flag', 'input', 'prompt', 'hint', 'placeholder', 'pattern', 'regex', 'message',
  // How long, how strong, how it is checked.
  'length', 'len', 'size', 'count', 'ttl', 'expiry', 'expires', 'expiration', 'lifetime', 'timeout', 'validity', 'format',
  'version', 'policy', 'rule', 'rules', 'strength', 'complexity', 'required', 'enabled',
  // What handles it.
  'scheme', 'method', 'mode', 'algorithm', 'alg', 'cipher', 'hash', 'hasher', 'hashing', 'encoder', 'encoding', 'generator',
  'validator', 'provider', 'manager', 'helper', 'store', 'storage', 'backend', 'service', 'reset', 'rotation',
  // Which one it is: `api_key_id`, `token_ids` (but Vault's `secret_id` is a secret, namesMetadata).
  'id', 'ids',
]);
const SENSITIVE_WORD = /^(?:pass(?:words?|wd|phrase)?|pwd|secrets?|tokens?|auth(?:orization)?|keys?)$/;

/** `token_type`, `secretName`, `API_KEY_FILE`, `passwordMinLength`: the key names something about a secret. */
function namesMetadata(key: string): boolean {
  const words = key.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g)?.map((w) => w.toLowerCase()) ?? [];
  const first = words.findIndex((w) => SENSITIVE_WORD.test(w));
  return first >= 0 && words.slice(first + 1).some((w) => METADATA_WORDS.has(w) && !(w === 'id' && /^secrets?$/.test(words[first]!)));
}

/** A key whose value is the secret itself. */
export function holdsSecret(key: string): boolean {
  return isSensitiveKeyName(key) && !namesMetadata(key);
}

/** Words before a final `key` that make it a lookup or a public key, not a secret: `cacheKey`, `public_key`, `sort_key`. */
const LOOKUP_QUALIFIERS = new Set([
  'public', 'pub', 'foreign', 'unique', 'composite', 'natural', 'surrogate', 'cache', 'sort', 'partition', 'range', 'hash', 'row',
  'idempotency', 'dedup', 'deduplication', 'lock', 'lookup', 'map', 'object', 'query', 'search', 'index', 'cursor', 'page',
  'continuation', 'etag', 'version', 'i18n', 'translation', 'locale', 'message', 'react', 'list', 'item', 'node', 'route',
  'routing', 'shard', 'group', 'state', 'bucket', 's3', 'file', 'host', 'gpg', 'pgp', 'kid', 'verify', 'verification', 'sequence',
  'schema', 'registry', 'ref', 'entity', 'resource', 'sentry', 'publishable', 'site',
]);

/**
 * A key whose value is a secret when it looks generated (WEAK_KEYWORD): `key` or `pat` ends its
 * name (digits aside: `key1`), after no word that makes it a lookup (`cacheKey`).
 */
export function holdsGeneratedSecret(key: string): boolean {
  const words = key.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g)?.map((w) => w.toLowerCase()) ?? [];
  let last = words.length - 1;
  while (last > 0 && /^[0-9]+$/.test(words[last]!)) last--;
  if (words[last] !== 'key' && words[last] !== 'pat') return false;
  return last === 0 || !LOOKUP_QUALIFIERS.has(words[last - 1]!);
}

/** Shannon entropy of `value`, in bits a character. */
function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits;
}

/**
 * A value drawn at random rather than written: 16 characters or more of a key's alphabet
 * (letters, digits, `+/=_.~-`), letters and digits both, and at least 3.3 bits of entropy a
 * character (random base62 has ~3.8 at that length; `user_profile_cache` and `2024-01-01` fail).
 */
export function isHighEntropy(value: string): boolean {
  // Laravel's `APP_KEY=base64:…`: the encoding named before the value.
  value = value.replace(/^(?:base64|hex|b64):/, '');
  return value.length >= 16 && value.length <= 1000 && /^[A-Za-z0-9+/=_.~-]+$/.test(value) && /[0-9]/.test(value) && /[A-Za-z]/.test(value) && entropy(value) >= 3.3;
}

const PLACEHOLDER_WORDS = /^(?:changeme|changeit|change[_-]?me|placeholder|redacted|example|dummy|todo|tbd|null|none|nil|undefined|true|false)$/i;

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

/** Authentication schemes and token types: what a `token_type` or an `auth` setting names. */
const SCHEME_WORDS = /^(?:bearer|basic|digest|negotiate|ntlm|oauth2?|jwt|hmac(?:[-_]?sha\d+)?|hs256|rs256|es256|api[-_]?key|mac|pat)$/i;

/**
 * A value that names a secret instead of holding it: an environment variable's name
 * (`DB_PASSWORD`), an HTTP header's (`X-Acme-Api-Key`), a path or ARN in a secret store
 * (`prod/orders/db-credentials`, `arn:aws:secretsmanager:…`), a URL (its password and query
 * tokens are found by their own rules), or an authentication scheme (`bearer`).
 */
export function namesASecret(value: string): boolean {
  return (
    (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value) && isSensitiveKeyName(value)) ||
    /^[A-Z][a-z0-9]*(?:-[A-Z][a-z0-9]*)+$/.test(value) ||
    /^\/?[a-z0-9_.-]+(?:\/[a-z0-9_.-]+)+\/?$/.test(value) ||
    /^arn:[a-z-]+:/.test(value) ||
    /^[a-z][a-z0-9+.-]*:\/\/[^\s@]*$/.test(value) ||
    SCHEME_WORDS.test(value)
  );
}

/**
 * An unquoted value that reads as code rather than data: a call (`getToken()`), a property path
 * (`process.env.API_KEY`, `cfg.Token`), or a digit-free identifier or type in camel, Pascal or
 * constant case (`string`, `AccessToken`, `DEFAULT_TOKEN`). Random letters are half capitals.
 */
function isCodeReference(value: string, next: string | undefined): boolean {
  if (next === '(' || /^[A-Za-z_$][\w$.]*\(.*\)$/.test(value)) return true;
  // A property path, unless a part of it reads as generated (`dp.st.prd.Jow8dmjHbvM2…`, a dotted token).
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return !value.split('.').some((part) => part.length >= 16 && looksGenerated(part));
  if (!/^[A-Za-z_$]+$/.test(value)) return false;
  const capitals = value.replace(/[^A-Z]/g, '').length;
  return value === value.toUpperCase() || capitals <= value.length / 4;
}

/**
 * A value that reads as generated rather than chosen or written: twelve characters or more with
 * letters and digits, or twenty with mixed case; no spaces, not a word, path or URL. For a
 * value with no `=` or `:` between it and its key (`set -gx API_SECRET …`), where prose
 * (`the token expires`) must not be taken for an assignment.
 */
export function looksGenerated(value: string): boolean {
  if (/\s/.test(value) || namesASecret(value) || isPlaceholderValue(value)) return false;
  const letters = /[A-Za-z]/.test(value);
  if (value.length >= 12 && letters && /[0-9]/.test(value)) return true;
  return value.length >= 20 && /[a-z]/.test(value) && (value.match(/[A-Z]/g)?.length ?? 0) >= 3;
}

/** `Bearer …`, `Basic …`: the authorization-header rule redacts the credential and keeps the scheme. */
const SCHEME_AND_CREDENTIAL = /^(?:Bearer|Basic|Token|Digest|bearer|basic|token|digest)\s/;

/** Whether `secret`, found at `span` of `text` under key `key`, is one. */
export function isSecretUnderKey(key: string, secret: string, text: string, { start, end }: SecretSpan): boolean {
  if (key && namesMetadata(key)) return false;
  if (isPlaceholderValue(secret) || namesASecret(secret) || SCHEME_AND_CREDENTIAL.test(secret)) return false;
  const quoted = /["'`>]/.test(text[start - 1] ?? '');
  return quoted || !isCodeReference(secret, text[end]);
}
