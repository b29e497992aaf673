import type { FoundSecret } from './secretRules';
import { holdsSecret } from './keyNames';
import { isPlaceholderValue } from './secretValues';

/**
 * Secrets a command printed, as a transcript's tool output or a pasted terminal shows them: the
 * command reads a secret store and prints the value alone (`op read …`, `kubectl get secret … |
 * base64 -d`, `vault kv get -field=…`, `gcloud auth print-access-token`), so the line after it is
 * the secret, whatever its shape. And a notebook's echo of a secret-named variable
 * (`os.environ["WANDB_API_KEY"]` then `Out[3]: '…'`).
 */

const PRINTS_SECRET = [
  'op read ',
  'op item get [^\\r\\n]*--fields',
  'kubectl (?:-{1,2}[\\w-]{1,30}(?:[ =][^\\s-]\\S{0,200})? {1,4}){0,4}(?:get secrets?|config view) [^\\r\\n]*(?:base64 (?:-d|--decode)|jsonpath)',
  // Argo CD's first admin password: `argocd admin initial-password -n argocd`.
  'argocd admin initial-password',
  'aws sts [^\\r\\n]*--output text',
  'az keyvault secret show [^\\r\\n]*(?:tsv|--query value)',
  // Any command whose output `jq -r` narrows to a token, secret or password field.
  '[^\\r\\n]*\\| {0,4}jq -r {1,4}[\'"]?[\\w.\\[\\]]*(?:[Tt]oken|[Ss]ecret|[Pp]assword|[Kk]ey)[\'"]?',
  // yq prints a scalar raw: `yq '.auth.password' values.yaml`.
  'yq(?: {1,4}(?:e|eval|-r))? {1,4}[\'"]?[\\w.\\[\\]]*(?:[Tt]oken|[Ss]ecret|[Pp]assword|[Kk]ey)[\'"]? ',
  'vault (?:kv get|read) [^\\r\\n]*-field[= ]',
  'gcloud auth (?:application-default )?print-(?:access|identity)-token',
  'gcloud secrets versions access',
  'aws secretsmanager get-secret-value [^\\r\\n]*--output text',
  'aws ssm get-parameters? [^\\r\\n]*--with-decryption[^\\r\\n]*--output text',
  'security find-(?:generic|internet)-password [^\\r\\n]*-w',
  'gh auth token',
  'heroku auth:token',
  'az account get-access-token [^\\r\\n]*(?:tsv|accessToken)',
  'doppler secrets get [^\\r\\n]*--plain',
  'pass show ',
  // Bitwarden's and LastPass' CLIs: `bw get password <item>`, `lpass show --password <item>`.
  'bw get (?:password|totp) ',
  'lpass show [^\\r\\n]*--password',
  'az acr credential show [^\\r\\n]*(?:tsv|--query)',
  // A key file shown whole (`cat config/master.key`, a MongoDB `keyfile`, Ansible's `.vault_pass`; not a public key's
  // `.pub`), Terraform's values shown raw.
  'cat {1,4}[^\\s]*(?:master\\.key|\\.key|_key|privatekey|priv(?:ate)?[_-]key(?:\\.pem|\\.txt)?|keyfile|[Ss]ecret|[Tt]oken|[Pp]assword|passwd|credentials|vault[_-]pass(?:word)?(?:\\.txt)?|pass(?:phrase)?\\.txt|[._-](?:pw|pwd|pass))(?![\\w.])',
  'terraform output {1,4}-raw ',
  // A secret made and printed to be pasted somewhere: Phoenix's and Rails' generators, Django's, Python's `secrets`, OpenSSL.
  'mix phx\\.gen\\.secret', '(?:bin/)?rails secret', 'rake secret', 'php artisan key:generate [^\\r\\n]*--show',
  '[^\\r\\n]*(?:get_random_secret_key\\(\\)|secrets\\.token_(?:hex|urlsafe)\\()', 'openssl rand ',
  'nonsensitive\\(',
  // A key whose path names a secret: `consul kv get service/billing/psp_api_key`, `etcdctl get /app/db_password`.
  '(?:consul kv get|etcdctl get) {1,4}[^\\s]*(?:[Kk]ey|[Tt]oken|[Ss]ecret|[Pp]ass)[^\\s]*(?: [^\\r\\n]*)?',
];

/** A command run in a container: `docker exec jenkins …`, `kubectl exec -n ci jenkins-0 -- …`. */
const IN_CONTAINER = '(?:(?:docker|podman) {1,4}exec(?: {1,4}-{1,2}[\\w-]{1,20}(?:[ =][^\\s-]\\S{0,100})?){0,4} {1,4}[\\w.-]{1,100} {1,4}|kubectl {1,4}exec [^\\r\\n]{0,200}? -- {1,4})';

/** A shell prompt's `user@host:path ` before its `$` (`pi@gw:~ $ `), when it shows one. */
const PROMPT_HOST = '(?:[\\w.-]{1,40}@[\\w.-]{1,60}:[^\\s$#]{0,200}[ \\t]?)?';

/**
 * The command on a line of its own (after a prompt's `$`, `%`, `>` or `#`, perhaps run by sudo), its output's first
 * line a single word (after the Heroku CLI's `›` warnings).
 */
const PRINTED = new RegExp(`(?:^|\\n)[ \\t]*(?:${PROMPT_HOST}[$%>#][ \\t]{1,4})?(?:sudo {1,4}(?:-\\S{1,20} {1,4})*)?(?:${IN_CONTAINER})?(?:${PRINTS_SECRET.join('|')})[^\\r\\n]*\\r?\\n(?:[ \\t]*›[^\\r\\n]*\\r?\\n){0,4}[ \\t]*([^\\s]{6,8000})[ \\t]*(?=\\r?\\n|$)`, 'dg');

/**
 * A secret on the second line of what a command printed: OpenVPN's `auth-user-pass` file shown
 * whole (the user, then the password), `etcdctl get` of a key that names a secret (the key, then
 * its value).
 */
const PRINTED_SECOND_LINE =
  /(?:^|\n)[ \t]*(?:[$%>#][ \t]{1,4})?(?:(?:sudo {1,4})?cat {1,4}\S*openvpn\S*(?:auth|pass|cred)\S*|etcdctl[^\r\n]{0,200} get {1,4}\S*(?:[Kk]ey|[Tt]oken|[Ss]ecret|[Pp]ass)\S*)[ \t]*\r?\n[ \t]*\S{1,200}[ \t]*\r?\n[ \t]*(\S{4,1000})[ \t]*(?=\r?\n|$)/dg;
/**
 * What a tool prints after making a password or a token, a few lines on: Hex's `mix hex.user key generate` (`New key: …`), Elasticsearch's
 * `elasticsearch-reset-password` (`New value: …`), Particle's `particle token create` (the token
 * alone on its line).
 */
const NEW_PASSWORD_PRINTED =
  /(?:mix[ \t]{1,4}hex\.user[ \t]{1,4}key[ \t]{1,4}generate|hex\.user key generate)[^\r\n]{0,300}(?:\r?\n[^\r\n]{0,300}){0,4}?\r?\n[^\r\n]{0,40}New key:[ \t]{1,4}([A-Za-z0-9]{16,200})|elasticsearch-reset-password[^\r\n]{0,300}(?:\r?\n[^\r\n]{0,300}){0,4}?\r?\nNew value:[ \t]{1,4}(\S{6,1000})|particle[ \t]{1,4}token[ \t]{1,4}create[^\r\n]{0,300}(?:\r?\n[^\r\n]{0,300}){0,4}?\r?\n[ \t]*([0-9a-f]{40})[ \t]*(?=\r?\n|$)/dg;

/** What `bundle config` prints for a gem source's credentials: the host, then `Set for …: "user:password"`. */
const BUNDLER_PRINTED = /(?:^|\n)[ \t]*[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,8}[ \t]*\r?\n[ \t]*Set for [^\r\n]{0,300}?:[ \t]*"([^"\s:]{1,100}:[^"\s]{1,1000})"/dg;

const NOTEBOOK_ECHO = /(?:os\.environ\[|os\.getenv\(|process\.env\.|ENV\[)["']?\w*(?:KEY|TOKEN|SECRET|PASSWORD|PASS|PWD)\w*["']?[\])]?[ \t]*\r?\nOut\[\d{1,5}\]:[ \t]*(['"])([^'"\r\n]{6,8000})\1/dg;

export const PRINTED_SECRET_KEYWORDS = ['op read', 'op item', 'kubectl', 'vault', 'gcloud', 'secretsmanager', 'ssm', 'find-generic', 'find-internet', 'gh auth', 'auth:token', 'get-access-token', 'doppler', 'pass show', 'out[', 'aws sts', 'keyvault', 'jq -r', 'keys list', 'az acr credential', 'consul kv get', 'etcdctl', 'cat ', 'terraform output', 'nonsensitive(', 'yq ', 'elasticsearch-reset', 'env:', 'set for ', 'particle', 'argocd admin', 'phx.gen.secret', 'ils secret', 'ake secret', 'get_random_secret_key', 'secrets.token_', 'key:generate', 'openssl rand', 'bw get', 'lpass', 'include-value', 'hex.user'];

/**
 * A command that lists keys as a table or JSON (`az storage account keys list -o table`,
 * `az cosmosdb keys list`): every base64 key in its output, up to the next prompt.
 */
const KEYS_LISTED = /(?:^|\n)[ \t]*(?:[$%>#][ \t]{1,4})?az [a-z -]{1,60}keys list[^\r\n]*\r?\n((?:(?![ \t]*[$%>#][ \t])[^\r\n]*(?:\r?\n|$)){1,40})/dg;
const LISTED_KEY = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{40,100}={0,2}(?![A-Za-z0-9+/=])/g;

/** API Gateway's keys printed with their values: `aws apigateway get-api-key(s) … --include-value`, each `"value"` up to the next prompt. */
const API_KEYS_PRINTED = /(?:^|\n)[ \t]*(?:[$%>#][ \t]{1,4})?aws apigateway get-api-keys?[^\r\n]*--include-value[^\r\n]*\r?\n((?:(?![ \t]*[$%>#][ \t])[^\r\n]*(?:\r?\n|$)){1,200})/dg;
const API_KEY_VALUE = /"value"[ \t]{0,4}:[ \t]{0,4}"([A-Za-z0-9]{20,128})"/g;

/**
 * Vault's table of a secret (`vault kv get`, `vault read database/creds/…`): `Key  Value` rows up to
 * the next prompt, each row whose key holds a secret (`password`, `secret_key`, `token`). The line
 * break before the command is looked behind for: a table just before it has taken it.
 */
const VAULT_TABLE = /(?<=^|\n)[ \t]*(?:[$%>#][ \t]{1,4})?vault (?:kv get |read |token (?:lookup|create)(?=[ \t\r\n]))[^\r\n]*\r?\n((?:(?![ \t]*[$%>#][ \t])[^\r\n]*(?:\r?\n|$)){1,60})/dg;
/** PowerShell's environment as a table (`Get-ChildItem Env:`, `dir env:`): `Name  Value` rows up to the next prompt. */
const ENV_TABLE = /(?<=^|\n)[ \t]*(?:PS [^\r\n>]{0,200}> ?|[$%>#][ \t]{1,4})?(?:Get-ChildItem|gci|dir|ls|Get-Item)[ \t]{1,4}Env:[^\r\n]*\r?\n((?:(?![ \t]*(?:PS [^\r\n>]{0,200}>|[$%>#][ \t]))[^\r\n]*(?:\r?\n|$)){1,300})/dgi;
const VAULT_ROW = /^([\w.-]{1,60})[ \t]{2,}(\S[^\r\n]{0,4000}?)[ \t]*\r?$/gm;

export function findPrintedSecrets(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  VAULT_TABLE.lastIndex = text.includes('vault ') ? 0 : text.length;
  for (let match = VAULT_TABLE.exec(text); match; match = VAULT_TABLE.exec(text)) {
    const [outputStart] = match.indices![1]!;
    // A token's own table (`vault token lookup`, `create`) names the token `id`.
    const ofToken = /vault token/.test(match[0]);
    VAULT_ROW.lastIndex = 0;
    for (let row = VAULT_ROW.exec(match[1]!); row; row = VAULT_ROW.exec(match[1]!)) {
      if (!(holdsSecret(row[1]!) || (ofToken && row[1] === 'id')) || isPlaceholderValue(row[2]!)) continue;
      const start = outputStart + row.index + row[0].indexOf(row[2]!, row[1]!.length);
      found.push({ start, end: start + row[2]!.length });
    }
  }
  ENV_TABLE.lastIndex = /env:/i.test(text) ? 0 : text.length;
  for (let match = ENV_TABLE.exec(text); match; match = ENV_TABLE.exec(text)) {
    const [outputStart] = match.indices![1]!;
    VAULT_ROW.lastIndex = 0;
    for (let row = VAULT_ROW.exec(match[1]!); row; row = VAULT_ROW.exec(match[1]!)) {
      if (!holdsSecret(row[1]!) || isPlaceholderValue(row[2]!)) continue;
      const start = outputStart + row.index + row[0].indexOf(row[2]!, row[1]!.length);
      found.push({ start, end: start + row[2]!.length });
    }
  }
  API_KEYS_PRINTED.lastIndex = text.includes('include-value') ? 0 : text.length;
  for (let match = API_KEYS_PRINTED.exec(text); match; match = API_KEYS_PRINTED.exec(text)) {
    const [outputStart] = match.indices![1]!;
    API_KEY_VALUE.lastIndex = 0;
    for (let key = API_KEY_VALUE.exec(match[1]!); key; key = API_KEY_VALUE.exec(match[1]!)) {
      const start = outputStart + key.index + key[0].length - 1 - key[1]!.length;
      found.push({ start, end: start + key[1]!.length });
    }
  }
  KEYS_LISTED.lastIndex = text.includes('keys list') ? 0 : text.length;
  for (let match = KEYS_LISTED.exec(text); match; match = KEYS_LISTED.exec(text)) {
    const [outputStart] = match.indices![1]!;
    LISTED_KEY.lastIndex = 0;
    for (let key = LISTED_KEY.exec(match[1]!); key; key = LISTED_KEY.exec(match[1]!)) found.push({ start: outputStart + key.index, end: outputStart + key.index + key[0].length });
  }
  for (const [pattern, group] of [[PRINTED, 1], [NOTEBOOK_ECHO, 2], [PRINTED_SECOND_LINE, 1], [NEW_PASSWORD_PRINTED, 1], [NEW_PASSWORD_PRINTED, 2], [NEW_PASSWORD_PRINTED, 3], [BUNDLER_PRINTED, 1]] as const) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      // A pattern of alternatives holds its value in one group or another.
      const span = match.indices![group];
      if (!span) continue;
      const [start, end] = span;
      // A URL printed (a secret's id: `--query id`) says where a secret is, not what.
      if (!isPlaceholderValue(match[group]!) && !/^[a-z][a-z0-9+.-]*:\/\/[^\s@]*$/.test(match[group]!)) found.push({ start, end });
    }
  }
  return found;
}
