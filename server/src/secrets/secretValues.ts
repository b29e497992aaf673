import { isSensitiveKeyName, namesMetadata } from './keyNames';
import { isCacheKey, playsAnotherRole } from './otherRoleValues';
import { holdsPlaceholder } from './privateKeyBlocks';
import type { SecretSpan } from './secretRules';
import { TOKEN_PREFIX } from './truncatedTokens';
import { hasRun } from './sampledRuns';

/**
 * Whether a value found under a secret-sounding key is a secret. Names of secrets are not
 * secrets: `secret_name = "prod/orders/db"`, `token_type = "bearer"`, `apiKeyHeader =
 * "X-Api-Key"`; nor are placeholders (`${TOKEN}`, `<your-key>`, `changeme`) or code
 * (`getToken()`, `process.env.API_KEY`).
 */

/** Shannon entropy of `value`, in bits a character. */
export function entropy(value: string): number {
  let bits = 0;
  if (/^[\x00-\x7f]*$/.test(value)) {
    // Most values are ASCII: counted in an array, which a scan of many candidates calls often.
    const counts = new Uint32Array(128);
    for (let i = 0; i < value.length; i++) counts[value.charCodeAt(i)]!++;
    for (const n of counts) if (n > 0) bits -= (n / value.length) * Math.log2(n / value.length);
    return bits;
  }
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits;
}

/**
 * A value drawn at random rather than written: 16 characters or more of a key's alphabet
 * (letters, digits, `+/=_.~-`), letters and digits both, at least 3.3 bits of entropy a
 * character (random base62 has ~3.8 at that length; `user_profile_cache` and `2024-01-01` fail)
 * and no typed count (`12345678-ABCD-…`: a run of 7 counting up is ~1 in 10^10 drawn).
 */
export function isHighEntropy(value: string): boolean {
  // Laravel's `APP_KEY=base64:…`: the encoding named before the value.
  value = value.replace(/^(?:base64|hex|b64):/, '');
  return value.length >= 16 && value.length <= 1000 && /^[A-Za-z0-9+/=_.~-]+$/.test(value) && /[0-9]/.test(value) && /[A-Za-z]/.test(value) && entropy(value) >= 3.3 && !countsUp(value.toLowerCase(), 7);
}

/** How many of small letters, capitals, digits and symbols a value holds: three or four read as a password someone chose. */
export function characterClasses(value: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((kind) => kind.test(value)).length;
}

/** One word that reads as a password chosen (eight characters, three kinds) or drawn, where no key name vouches for it. */
export function readsAsPassword(value: string): boolean {
  return !/\s/.test(value) && ((value.length >= 8 && characterClasses(value) >= 3) || isHighEntropy(value));
}

const PLACEHOLDER_WORDS =
  /^(?:changeme|changeit|change[_-]?me|placeholder|redacted|example|dummy|todo|tbd|null|none|nil|undefined|true|false|password|passwd|pass|pwd|secret|token|test|username|optional|required|enabled|disabled|n\/a)$/i;

/**
 * Values that stand for a secret without being one: empty, `${TOKEN}`, `$TOKEN`, `%TOKEN%`,
 * `{{ token }}`, `<your-token>`, `your_api_key_here`, `xxxx`, `****`, `changeme`, and text already
 * redacted by Engram (so redaction is idempotent).
 */
export function isPlaceholderValue(value: string): boolean {
  const v = value.trim();
  return (
    v.length === 0 ||
    /^(?:\$|%|\{\{|<.*>$|\[)/.test(v) ||
    // Octopus Deploy's and Azure DevOps' substitutions: `#{SmtpPassword}#`, `#{db.password}`.
    /^#\{[\w.:-]{1,100}\}#?$/.test(v) ||
    // An instruction in angle brackets cut at its first space (`<generate with: openssl rand -hex 32>`).
    /^<[A-Za-z][\w-]*$/.test(v) ||
    // A template's field (`{password}`, `{PASS}`), and what to put there (`REPLACE_WITH_PASSWORD`).
    /^\{(?:[a-z_]{1,60}|[A-Z_]{1,60}|[a-z]+(?:[A-Z][a-z]+){1,6})\}$/.test(v) ||
    /^(?:replace|insert|enter|put|paste)[_-]?(?:with|your|here|me)/i.test(v) ||
    // `<user:password>` read from its `:`, `…]`, a value cut short (`ops_eyJzaWdu...`), AWS's `…EXAMPLE` keys.
    /(?:[>\]]|\.\.\.?|\[redacted\]|EXAMPLE(?:KEY)?)$/i.test(v.slice(-10)) ||
    v.includes('####') ||
    // The word for a password in a language: a form's label or its translation (`"login.password": "Passwort"`).
    PASSWORD_IN_LANGUAGES.has(v.toLowerCase()) ||
    // Or a label of a few words holding it (`Passwort bestätigen`, `Confirmer le mot de passe`).
    (/^[^\d\s]+(?: [^\d\s]+){1,5}$/u.test(v) && holdsPasswordWord(v.toLowerCase())) ||
    v.includes('****') ||
    // Said to be fake (`somefakekey`, `notasecret`), or filled in with x's after a token's start (`AKCxxxxxxxx`).
    /fake|not_?a_?(?:secret|password)|not_?so_?secret/i.test(v) ||
    // `changeme`, `ChangeIt`, `changeme123!`: the word, or with the suffix a policy asks for (`1`…`1234`,
    // `!`); a password grown from it (`changeit715x`, `changeit597`, `Changeit844!`) is a password.
    /^change_?(?:me|it)$/i.test(v) ||
    // `change-me-in-production`, `changeme_please`: the word, then words that say so.
    /^change[_-]?me[_-][a-z]+(?:[_-][a-z]+)*$/i.test(v) ||
    /^(?:change_?(?:me|it)|CHANGE_?(?:ME|IT))(?:1(?:2(?:34?)?)?)?[!.]?$/.test(v) ||
    // Masked: `sk_live_••••4xQ2`.
    /[•●·]{4}/.test(v) ||
    // A short unit typed over and over (`asdfasdfasdf…`), a count typed whole (`1234567890`, `abcdef`).
    /^(.{2,8}?)\1{3,}$/.test(v) ||
    (v.length >= 6 && ('01234567890'.includes(v) || 'abcdefghijklmnopqrstuvwxyz'.includes(v.toLowerCase()))) ||
    // Ciphertext a tool keeps in the repository on purpose: SOPS' `ENC[AES256_GCM,…]`, Jasypt's `ENC(…)`, Ansible Vault.
    /^(?:ENC\[AES256_GCM,|ENC\(|\$ANSIBLE_VAULT;)/.test(v) ||
    // A SealedSecret's ciphertext (`encryptedData:`): base64 from `Ag`, hundreds of characters long; a Jenkins
    // secret encrypted by its controller's key (`{AQAAABAAAAAQ…}`).
    /^Ag[A-Za-z0-9+/]{150,}={0,2}$/.test(v) ||
    /^\{AQAAAB[A-Za-z0-9+/]{20,}={0,2}\}$/.test(v) ||
    /(?:xxxx|XXXX)$/.test(v) ||
    // `your-api-key`, `my_secret_2024`: words after `your`/`my`; not with a part typed in no word's case (`my-super-OXpsqq-6815`).
    (/^(?:your|my)[_-]/i.test(v) && !/[a-z][A-Z]|[A-Z]{2}[a-z]/.test(v)) ||
    // A query's or a command's parameter: `password=@password`, `:password`; Apple's tools' `@keychain:NAME`, `@env:NAME`.
    /^[@:][A-Za-z_]{1,60}$/.test(v) ||
    /^@(?:keychain|env):[\w.-]{1,100}$/.test(v) ||
    // A JSONPath or template that fills it in (`{.credential.access_token}`), bank-vaults' `vault:path#key`.
    /^\{\.[\w.[\]-]+\}$/.test(v) ||
    /^>{0,2}vault:[\w/.-]+#[\w.-]+$/.test(v) ||
    // Documentation's own example values, copied with the code: Google Authenticator's seed, express-session's and
    // iron-session's secrets.
    v === 'JBSWY3DPEHPK3PXP' ||
    v === 'keyboard cat' ||
    v === 'complex_password_at_least_32_characters_long' ||
    // `YOURPASSWROD`, `YourApiKey`: what to write there, in letters alone.
    /^(?:YOUR[A-Z]{4,}|Your[A-Z][A-Za-z]{3,})$/.test(v) ||
    /^(?:my|your)[_-]?(?:pass(?:word|wd)?|pwd|secret|token|api[_-]?key|key)$/i.test(v) ||
    // A shell variable spliced between quotes (`"'$DB_PASSWORD'"`), an HTML-escaped `<…>`.
    /^(["'])\$\{?[A-Za-z_]\w*\}?\1$/.test(v) ||
    /^&lt;.*&gt;$/.test(v) ||
    typedAlternation(v) ||
    // A count typed into a long value (`NRAK-123456788ABCDEFGH…`): a drawn one has no run of 8.
    (v.length >= 20 && countsUp(v.toLowerCase(), 8)) ||
    // `user@`, what anonymous FTP takes as its password (an e-mail address by convention).
    /^[a-z]+@$/.test(v) ||
    /^(.)\1*$/.test(v) ||
    /^x{3,}$/i.test(v.replace(/[-_]/g, '')) ||
    PLACEHOLDER_WORDS.test(v)
  );
}

/**
 * Letters and digits taking turns over 16 characters or more and most of the value (`a1b2c3d4e5f6…`,
 * `d4c3b2a1-f6e5-…`): a documentation example typed by hand; a draw of base36 does that ~1 in 10^5
 * times a place.
 */
function typedAlternation(value: string): boolean {
  if (value.length < 16) return false;
  let run = 0;
  let longest = 0;
  let characters = 0;
  let letter: boolean | undefined;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 45) continue;
    const isDigit = c >= 48 && c <= 57;
    const isLetter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    if (!isDigit && !isLetter) {
      run = 0;
      letter = undefined;
      continue;
    }
    characters++;
    run = letter === undefined || letter !== isLetter ? run + 1 : 1;
    letter = isLetter;
    longest = Math.max(longest, run);
  }
  // Over half the value: a long drawn key (128 hex digits) holds a run of 16 by chance.
  return longest >= 16 && longest * 2 >= characters;
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
    // An HTTP header's name: words or capitals joined by `-` (`X-Acme-Api-Key`, `X-B3-TraceId`); a digit inside a word (`Qu4ntum-Leap`) is a password's.
    /^(?:[A-Z][a-z]+(?:[A-Z][a-z]+)*|[A-Z][A-Z0-9]{0,9})(?:-(?:[A-Z][a-z]+(?:[A-Z][a-z]+)*|[A-Z][A-Z0-9]{0,9}))+$/.test(value) ||
    // A path, or a Rails route's `controller#action` (`cms/sites/passwords#update`).
    /^\/?[a-z0-9_.-]+(?:\/[a-z0-9_.-]+)+\/?(?:#[a-z_]+|:[a-z_]+)?$/.test(value) ||
    // A file's path (`/foo/bar/Password.js`).
    /^\/?(?:[\w.-]+\/)+[\w-]+\.[a-z]{1,5}$/.test(value) ||
    // A label that names a secret in words (`"Authorization Token"`), and Azure's Key Vault reference.
    (/^[A-Za-z]+(?: [A-Za-z]+){1,5}$/.test(value) && isSensitiveKeyName(value.replace(/ /g, '_'))) ||
    /^@Microsoft\.KeyVault\(/.test(value) ||
    // A part of CloudFormation's dynamic reference to Secrets Manager (`…:SecretString:password::`).
    /:SecretString:/.test(value) ||
    // A CSS selector (`#add-password`, `.reset-password`) and a host name (`….apps.googleusercontent.com`, a public OAuth client id).
    /^[#.][a-z][a-z0-9]*(?:-[a-z0-9]+)+$/.test(value) ||
    /^[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,}\.(?:com|net|org|io|app|dev)$/.test(value) ||
    /^arn:[a-z-]+:/.test(value) ||
    // A file the value is read from: Vault's and curl's `@db_pass.txt`.
    /^@(?:[\w.~-]*\/)*[\w-]+\.(?:txt|json|ya?ml|pem|key|env|secret|conf|cfg|ini|toml|b64|crt)$/.test(value) ||
    // A secret manager's reference: 1Password's `op://vault/item/field` (names may hold spaces).
    /^op:\/\/[^@\r\n]{1,300}$/.test(value) ||
    // A Kubernetes Secret's or a key's name: `postgres-password`, `db-credentials`.
    /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:password|passwd|secret|credentials|creds|token|key)s?$/.test(value) ||
    /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:credentials|creds|secrets?)(?:-[a-z0-9]+)*$/.test(value) ||
    /^[a-z][a-z0-9+.-]*:\/\/[^\s@]*$/.test(value) ||
    SCHEME_WORDS.test(value)
  );
}

const PASSWORD_IN_LANGUAGES = new Set([
  'mot de passe', 'passwort', 'kennwort', 'contraseña', 'contrasena', 'clave', 'senha', 'palavra-passe', 'wachtwoord',
  'lösenord', 'losenord', 'hasło', 'haslo', 'heslo', 'salasana', 'adgangskode', 'passord', 'parola', 'şifre', 'sifre', 'jelszó',
  'パスワード', '密码', '密碼', '비밀번호', '암호', 'пароль', 'κωδικός', 'סיסמה', 'كلمة المرور', 'पासवर्ड', 'mật khẩu', 'kata sandi', 'รหัสผ่าน',
]);
const PASSWORD_WORDS = [...PASSWORD_IN_LANGUAGES];
const holdsPasswordWord = (lower: string) => PASSWORD_WORDS.some((word) => lower.includes(word));

/**
 * An unquoted value that reads as code rather than data: a call (`getToken()`), a property path
 * (`process.env.API_KEY`, `cfg.Token`), or a digit-free identifier or type in camel, Pascal or
 * constant case (`string`, `AccessToken`, `DEFAULT_TOKEN`). Random letters are half capitals.
 */
function isCodeReference(value: string, next: string | undefined): boolean {
  if (next === '(' || /^[A-Za-z_$][\w$.]*\(.*\)$/.test(value)) return true;
  // A property path, unless a part of it reads as generated (`dp.st.prd.Jow8dmjHbvM2…`, a dotted token).
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return !value.split('.').some((part) => part.length >= 16 && looksGenerated(part) && !/^[a-z0-9]+(?:_[a-z0-9]+)+$/.test(part));
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
/** A tag with an attribute: markup pasted into a value (`"<xsd:element name="`), not a password. */
const MARKUP = /^<[A-Za-z][\w:.-]{0,60}\s+[\w:.-]{1,60}=/;
/** A package and its version: `jjwt-jackson-0.11.2` under `io.jsonwebtoken:`, a Maven coordinate. */
const PACKAGE_VERSION = /^[a-z][a-z0-9]*(?:[-_.][a-z][a-z0-9]*)*[-@:]v?[0-9]{1,4}(?:\.[0-9]{1,4}){1,3}$/;

/**
 * A known token's prefix before a part too short or too plain to have been drawn
 * (`xoxp-1234567890`, `sk-ant-oat01-tooShort`): the token's shape filled in by hand, which its
 * own rule leaves (tokenRules.ts). A drawn token's body is high in entropy.
 */
function isHandFilledToken(value: string): boolean {
  const prefix = TOKEN_PREFIX.exec(value);
  // Its first 1,000 characters tell: an AWS session token runs past that.
  return prefix !== null && prefix.index === 0 && !isHighEntropy(value.slice(prefix[0].length, prefix[0].length + 1000));
}

/**
 * RevenueCat's public SDK keys (`appl_…`, `goog_…`, `amzn_…`), Mapbox's public tokens (`pk.eyJ…`) and Datadog's client
 * tokens for browsers and apps (`pub` and 32 hex digits): shipped in apps, like Stripe's `pk_`.
 */
const PUBLIC_SDK_KEY = /^(?:(?:appl|goog|amzn|strp|rcb)_[A-Za-z0-9]{20,40}|pk\.eyJ[A-Za-z0-9_-]{10,2000}\.[A-Za-z0-9_-]{10,200}|pub[0-9a-f]{32})$/;

/**
 * Whether a text holds a run of 16 characters a drawn value is made of: rules that look for one
 * only after a word test this first (one fast scan; most text has none).
 */
export function holdsDrawnRun(text: string): boolean {
  return hasRun(text, 16, isDrawnCharacter);
}

/** [A-Za-z0-9_+/=.-], the characters of a drawn run, by character code. */
function isDrawnCharacter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 45 && c <= 57) || c === 95 || c === 43 || c === 61;
}

/** A secret's word said not to be one, at `at`: `(not secret, it's in every API URL)`, `not a token`. */
export function saidNotToBe(text: string, at: number): boolean {
  return /(?:^|[^\w])not[ \t](?:a[ \t])?$/i.test(text.slice(Math.max(0, at - 7), at));
}

/** Whether `secret`, found at `span` of `text` under key `key`, is one. */
export function isSecretUnderKey(key: string, secret: string, text: string, { start, end }: SecretSpan): boolean {
  // An id's name with a secret key's value (`AWS_ACCESS_KEY_ID="…/…+…"`, the two swapped): the value decides.
  const keyShaped = /^[A-Za-z0-9+/]{30,100}={0,2}$/.test(secret) && /[+/]/.test(secret);
  if (key && namesMetadata(key) && !(keyShaped && /id$/i.test(key))) return false;
  if (playsAnotherRole(key, secret, text, { start, end })) return false;
  // An assignment quoted as the value (`secret: 'password = "{{ vault_pg_password }}"'`): its own value decides.
  const nested = /^[A-Za-z_][\w.-]{0,60}[ \t]{0,4}[=:][ \t]{0,4}(["'])([^"'\r\n]{1,1000})\1$/.exec(secret);
  if (nested && isPlaceholderValue(nested[2]!)) return false;
  // A JSON object written as a string (`SecretStringTemplate: '{"username":"admin"}'`): its fields are judged as keys.
  if (/^\{.*\\?":.*\}$/s.test(secret)) return false;
  if (isPlaceholderValue(secret) || namesASecret(secret) || SCHEME_AND_CREDENTIAL.test(secret)) return false;
  if (MARKUP.test(secret) || PACKAGE_VERSION.test(secret) || isHandFilledToken(secret) || PUBLIC_SDK_KEY.test(secret) || isCacheKey(secret)) return false;
  if (secret.startsWith('-----BEGIN') && holdsPlaceholder(secret)) return false;
  // A SealedSecret's `encryptedData`: ciphertext only the cluster's controller can open, made to be committed.
  if (/^Ag[A-D][A-Za-z0-9+/]{200,}={0,2}$/.test(secret) && text.includes('encryptedData')) return false;
  // A shell's `${DB_PASSWORD:?… must be set}`: the message shown when it is not.
  if (secret.startsWith('?') && /\$\{[\w.-]{1,80}:$/.test(text.slice(Math.max(0, start - 82), start))) return false;
  // A Secrets Manager ARN's last part (`…:secret:prod/orders/db-tBtjjO`): the secret's name and a suffix AWS adds.
  if (/arn:aws[\w-]*:secretsmanager:[\w-]*:[0-9]{12}:secret:$/.test(text.slice(Math.max(0, start - 100), start))) return false;
  const quoted = /["'`>]/.test(text[start - 1] ?? '');
  // A type after a colon, its value after `=`: Swift's `var txtFieldPassword: UITextField! = nil`.
  if (!quoted && /:[ \t]{0,4}$/.test(text.slice(Math.max(0, start - 5), start)) && /^[ \t]{0,4}=(?!=)/.test(text.slice(end, end + 6))) return false;
  // A translation of the word (`"Password": "Lösenord"`, `"secret": "&#12497;&#12473;…"`): i18n files.
  if (/^\p{Lu}?\p{Ll}+$/u.test(secret) && /[^\x00-\x7f]/.test(secret)) return false;
  if (/^(?:&#[0-9]{2,6};?){2,}$/.test(secret)) return false;
  if (quoted && joinsLiterals(secret, text, end)) return false;
  // psql's variable, spliced in quoted: `WITH PASSWORD :'ro_password'`.
  if (/\s:['"]$/.test(text.slice(Math.max(0, start - 3), start)) && /^[a-z_][a-z0-9_]*$/.test(secret)) return false;
  // A value named for a secret (`smtp_password`) is a placeholder there too; a long option's value is a command's data
  // (`mysqldump --password=Ncbk0030.ovhOw`), not a property path.
  return quoted || !isCodeReference(secret, text[end]) || ((holdsData(text, start) || /(?:^|\s)--[A-Za-z][\w-]{0,40}=$/.test(text.slice(Math.max(0, start - 45), start))) && !isSensitiveKeyName(secret));
}

/**
 * Where an unquoted word is a value, not code: a `.env` or shell line (`DB_PASSWORD=whiteduke`, a
 * constant's name then `=` at the line's start), or a config's pair with the user on the line
 * above (`user = Aladdin` then `password = open_sesame`).
 */
function holdsData(text: string, start: number): boolean {
  // Lines this short only: a search back through a long line for each key on it would be quadratic.
  const lineStart = lineStartWithin(text, start, 120);
  if (lineStart < 0) return false;
  // At the line's start, or after a space: a `.env` line quoted in a sentence (`…: DB_PASSWORD=whiteduke`).
  if (/(?:^|[ \t])(?:export[ \t]+)?[A-Z][A-Z0-9_]*=$/.test(text.slice(lineStart, start))) return true;
  if (lineStart === 0) return false;
  const aboveStart = lineStartWithin(text, lineStart - 1, 100);
  return aboveStart >= 0 && /^[ \t]*(?:user(?:name)?|login)[ \t]*[=:][ \t]*[\w.@-]{1,64}\r?$/i.test(text.slice(aboveStart, lineStart - 1));
}

/** Where the line holding `at` starts, if no further back than `limit` characters (else -1). */
function lineStartWithin(text: string, at: number, limit: number): number {
  for (let i = at - 1; i >= 0 && at - i <= limit; i--) if (text.charCodeAt(i) === 10) return i + 1;
  return at <= limit ? 0 : -1;
}

/**
 * Quotes that close one literal and open the next, found as a value: code between them
 * (`"Password: " + getPassword() + ","`, `'password = '.$p['…']`, `…:"Password:",next:"…"`),
 * or a literal ending in a separator that a variable is joined to (`"application:" + appKey`).
 */
function joinsLiterals(value: string, text: string, end: number): boolean {
  // Base64 may start with `+` (`"auth": "+XDSe…"`): drawn, with no space, it joins nothing.
  if (!/\s/.test(value) && isHighEntropy(value)) return false;
  if (/^\s*(?:[+,;)]|\.\s*\$)|[+(,]\s*$/.test(value)) return true;
  return /[:=/\s]$/.test(value) && /^\s{0,4}\+\s{0,4}[A-Za-z_$]/.test(text.slice(end + 1, end + 12));
}

/** Letters in words (`Button`, `group`) over half of it: a path or an identifier, not a draw (whose runs of small letters are short). */
export function readsAsWords(value: string): boolean {
  let inWords = 0;
  for (const word of value.match(/[A-Z]?[a-z]{3,}/g) ?? []) inWords += word.length;
  return inWords * 2 > value.length;
}

/** Characters in a row that count up, as typed ones do: `123456`, `abcdef`. */
export function countsUp(value: string, run: number): boolean {
  let length = 1;
  for (let i = 1; i < value.length; i++) {
    length = value.charCodeAt(i) === value.charCodeAt(i - 1) + 1 ? length + 1 : 1;
    if (length >= run) return true;
  }
  return false;
}

/**
 * A token of a known shape (`glpat-…`, `AKIA…`, `hf_…`) filled in by hand: one character
 * repeated over much of it (`glpat-XXXXXXXX…`, `glc_1111…`), a short pattern repeated
 * (`GR1348941` then `123123…`), or a typed count (`12345678-ABCD-…`). gitleaks drops these
 * by entropy; a drawn token has none of them (a run of 7 counting up is ~1 in 10^10).
 */
export function isPlaceholderToken(token: string): boolean {
  const chars = token.replace(/[^A-Za-z0-9]/g, '');
  if (chars.length < 10) return false;
  // A documentation value that says so more than once (`00DE0X…!AQcAQH0dMHEXAMPLEzmpkb…EXAMPLE…`).
  if (chars.indexOf('EXAMPLE') !== chars.lastIndexOf('EXAMPLE')) return true;
  return mostRepeated(chars) >= chars.length * 0.4 || entropy(chars) < 2.6 || countsUp(chars.toLowerCase(), 7);
}

function mostRepeated(chars: string): number {
  const counts = new Map<string, number>();
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
  return Math.max(...counts.values());
}

/**
 * Any found value that is mostly one character, 16 of them or more (`AIzaaaaa…`, `bP88Q~xxxx…`,
 * a PEM block of `XXXX`): filled in, whatever rule found it. A chosen password is not.
 */
export function isFilledIn(value: string): boolean {
  const chars = value.replace(/[^A-Za-z0-9]/g, '');
  return chars.length >= 16 && mostRepeated(chars) >= chars.length * 0.6;
}
