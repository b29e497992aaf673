import type { SecretSpan } from './secretRules';

/**
 * Values in a secret's place that play another role, whatever the key above them says: a
 * command's flag, a reference to a secret kept elsewhere, a mode, a framework's rules, a spec of
 * names, a YAML alias, an audit log's HMAC, a CSV header's next column, a CI cache's key.
 */

/**
 * A cache's key as CI prints it: words joined by dashes, then a digest of the lockfile
 * (`node-cache-Linux-x64-npm-<sha256>`, actions/cache's `${{ runner.os }}-node-${{ hashFiles(…) }}`).
 * Three words at least: a service's `key-<hex>` is a token.
 */
const CACHE_KEY = /^[A-Za-z][A-Za-z0-9_.]{0,30}(?:-[A-Za-z0-9_.]{1,30}){2,12}-[0-9a-f]{32,128}$/;

export function isCacheKey(value: string): boolean {
  return CACHE_KEY.test(value);
}

/** Whether `secret`, found at `span` of `text` under `key`, plays another role than a secret's. */
export function playsAnotherRole(key: string, secret: string, text: string, { start, end }: SecretSpan): boolean {
  // A command's flag in an argument list (`"get-token", "--cluster-name"`), an external reference (wpa_supplicant's
  // `psk=ext:name`).
  if (/^--?[a-z][a-z0-9-]{1,40}$/.test(secret) || /^ext:[\w.-]{1,100}$/.test(secret)) return true;
  // A framework's validation rules (Laravel's `'password' => 'required|min:12|confirmed'`).
  if (/^[a-z_]{2,20}(?::[^|\s]{0,40})?(?:\|[a-z_]{2,20}(?::[^|\s]{0,40})?)+$/.test(secret) && /(?:^|\|)(?:required|nullable|min|max|confirmed|string|sometimes)(?:$|[|:])/.test(secret)) return true;
  // A BuildKit secret's spec (`docker build --secret id=npm_token,env=NPM_TOKEN`): names and paths.
  if (/^(?:id|src|source|env|type|target|required|mode|uid|gid)=[\w./$-]{1,200}(?:,(?:id|src|source|env|type|target|required|mode|uid|gid)=[\w./$-]{1,200}){0,6}$/.test(secret)) return true;
  // A YAML alias (`password: *db_password`): the value is the anchor's, written elsewhere.
  if (/^\*[\w.-]{1,100}$/.test(secret) && /:[ \t]{1,4}$/.test(text.slice(Math.max(0, start - 6), start))) return true;
  // Vault's audit log: every secret replaced by its HMAC (`hmac-sha256:…`), made to be kept.
  if (/^hmac-sha256:[0-9a-f]{64}$/.test(secret)) return true;
  // An `auth` attribute's mode (Tomcat's `auth="Container"`).
  if (/^auth$/i.test(key) && /^[A-Za-z]{2,20}$/.test(secret)) return true;
  // A CSV header's next column (`"Password","Web Site"`).
  if (/^"[\w -]{1,40}"$/.test(text.slice(start - 1, end + 1)) && isCsvHeader(lineAround(text, start))) return true;
  return false;
}

/** A CSV file's header: three names or more, each perhaps quoted. */
function isCsvHeader(line: string): boolean {
  return /^("?)[A-Za-z][\w -]{0,40}\1(?:,("?)[A-Za-z][\w -]{0,40}\2){2,30}\r?$/.test(line);
}

/** The line holding `at`, if it is shorter than 2,000 characters around it. */
function lineAround(text: string, at: number): string {
  const start = text.lastIndexOf('\n', at) + 1;
  const end = text.indexOf('\n', at);
  return at - start > 1000 || (end >= 0 ? end : text.length) - at > 1000 ? '' : text.slice(start, end >= 0 ? end : text.length);
}
