import { KEYWORD } from './secretPatterns';

/**
 * What a key's name says of its value: that it holds a secret (`DB_PASSWORD`, `client_secret`),
 * that it describes one (`token_type`, `secretName`, `API_KEY_FILE`, `wrong_password`), or that it
 * holds one only when the value looks generated (`encryption_key`, `*_PAT`, `creds`).
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
  // A form's texts, as translation keys name them: `login.password.forgot`, `password_mismatch`, `passwordTooltip`.
  'forgot', 'forgotten', 'tooltip', 'caption', 'title', 'description', 'error', 'errors', 'mismatch', 'invalid', 'help',
  'short', 'weak', 'expired', 'map', 'maps', 'accessor', 'question', 'identity', 'found', 'missing', 'revoked', 'denied', 'locked', 'unknown', 'incorrect', 'wrong', 'vergessen', 'falsch', 'incorrecta', 'incorrecto', 'olvidada', 'oublie',
  // How long, how strong, how it is checked.
  'length', 'len', 'size', 'count', 'ttl', 'expiry', 'expires', 'expiration', 'lifetime', 'timeout', 'validity', 'format',
  'version', 'policy', 'policies', 'rule', 'rules', 'strength', 'complexity', 'required', 'enabled', 'history', 'min', 'max', 'lockout',
  'attempts', 'retries', 'reuse',
  // What handles it.
  // nginx's `auth_basic "Restricted"`: the realm's name.
  'basic', 'scheme', 'method', 'methods', 'mode', 'algorithm', 'alg', 'cipher', 'hash', 'hasher', 'hashing', 'encoder', 'encoding', 'generator',
  'validator', 'validators', 'provider', 'manager', 'helper', 'hashers', 'store', 'storage', 'backend', 'service', 'reset', 'rotation',
  // Where it is read from: `--password-stdin` takes none (what follows is the registry).
  'stdin',
  // Where it is used: Firebase's `authDomain`, an `auth_host`.
  'domain', 'host', 'hostname',
  // Which one it is: `api_key_id`, `token_ids`, .NET's `UserSecretsId` (but Vault's `secret_id` is a secret, namesMetadata).
  'id', 'ids',
]);
const NOT_CREDENTIAL_WORDS = new Set(['csrf', 'xsrf', 'authenticity', 'public']);
/** Words before a secret's word that make its key an error's (`invalid_client_secret`, `wrong_password`), not a secret's. */
const ERROR_ADJECTIVES = new Set(['invalid', 'wrong', 'incorrect', 'bad', 'missing']);
const SENSITIVE_WORD = /^(?:pass(?:words?|wd|phrase|wort|e)?|pwd|secret[se]?|tokens?|auth(?:orization)?|keys?|kennwort|contrase(?:n|ñ)a|senha|motdepasse|wachtwoord|sifre|şifre|authtok|oauth|hasło|haslo|psk|(?:admin|db|root|user|smtp|mail|ldap|bind|redis|mysql|sql|ftp|api)pass)$/;

/** `token_type`, `secretName`, `API_KEY_FILE`, `passwordMinLength`: the key names something about a secret. */
export function namesMetadata(key: string): boolean {
  const words = key.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g)?.map((w) => w.toLowerCase()) ?? [];
  // A form's anti-forgery token (`csrf-token`, `authenticity_token`) and a `publicToken` are handed to every visitor.
  if (words.some((w) => NOT_CREDENTIAL_WORDS.has(w))) return true;
  // An error's constant or message: `ERR_INVALID_API_KEY = "E1044"`, `"wrong_password": "Incorrect password, …"`.
  if (words[0] === 'err' || words[0] === 'error' || words[0] === 'errors') return true;
  const sensitive = words.findIndex((w) => SENSITIVE_WORD.test(w));
  if (sensitive > 0 && words.slice(0, sensitive).some((w) => ERROR_ADJECTIVES.has(w))) return true;
  // What the name holds is its last secret's word: a `keyStorePassword` is a password (of a key store), a
  // `passwordStore` a store.
  let head = words.length - 1;
  while (head >= 0 && !SENSITIVE_WORD.test(words[head]!)) head--;
  // A form's text about it: `auth.forgotPassword`, `forgot_password_link`.
  if (words.slice(0, Math.max(0, head)).some((w) => w === 'forgot' || w === 'forgotten')) return true;
  // Helm's `existingSecret`: the name of a Secret that holds it.
  if (words.some((w, i) => i > 0 && words[i - 1] === 'existing' && SENSITIVE_WORD.test(w))) return true;
  return head >= 0 && words.slice(head + 1).some((w) => METADATA_WORDS.has(w) && !(w === 'id' && words[head] === 'secret'));
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
  'schema', 'registry', 'ref', 'entity', 'resource', 'sentry', 'publishable', 'site', 'primary',
]);

/** The last words of a key name that hold a secret only when its value looks generated (WEAK_KEYWORD). */
const WEAK_LAST_WORDS = new Set(['key', 'pat', 'cred', 'creds', 'credential', 'credentials', 'keystring']);

/**
 * A key whose value is a secret when it looks generated (WEAK_KEYWORD): `key`, `pat` or
 * `creds` ends its name (digits aside: `key1`), after no word that makes it a lookup
 * (`cacheKey`), an encoding's name aside (`_B64`, `_JSON`); `credentialsId` names one.
 */
export function holdsGeneratedSecret(key: string): boolean {
  // How the value is written says nothing of what it is: `GOOGLE_CREDENTIALS_B64`, `SA_KEY_JSON`.
  const words = key.replace(/[_.-]?(?:b64|base64|encoded|json)$/i, '').match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g)?.map((w) => w.toLowerCase()) ?? [];
  let last = words.length - 1;
  while (last > 0 && /^[0-9]+$/.test(words[last]!)) last--;
  // Etsy's `keystring`, also written `keyString`.
  if (words[last] === 'string' && words[last - 1] === 'key') words.splice(--last, 2, 'keystring');
  if (!WEAK_LAST_WORDS.has(words[last]!)) return false;
  return last === 0 || !LOOKUP_QUALIFIERS.has(words[last - 1]!);
}
