import type { FoundSecret, PatternRule } from './secretRules';
import { KEYWORD } from './secretPatterns';
import { holdsSecret } from './keyNames';
import { isCacheKey } from './otherRoleValues';
import { characterClasses, isHighEntropy, isPlaceholderValue, namesASecret, readsAsPassword } from './secretValues';

/**
 * Passwords in configuration files whose syntax marks them by position or directive rather than
 * by a key name and an operator: Redis' `requirepass`, HAProxy's `insecure-password`, keepalived's
 * `auth_pass`, Net-SNMP's `createUser`, cloud-init's `chpasswd` list, a Hardhat network's
 * `accounts`, a PuTTY key's private lines, a Markdown table's password column, a Basic
 * credential under any header's name, an app password of four groups of four.
 */

const accept = (secret: string) => !isPlaceholderValue(secret);

export const CONFIG_FILE_RULES: readonly PatternRule[] = [
  // A Dockerfile's legacy `ENV NAME value` (no `=`): the rest of the line is the value; quoted in a
  // sentence (`…: ENV ADMIN_PWD …`), one word that reads as a password or a draw.
  {
    id: 'config-password',
    pattern: new RegExp(`ENV(?<![\\w-]ENV)[ \\t]+(?:[\\w.-]{0,40}${KEYWORD}[\\w.-]{0,40})[ \\t]+(?!=)([^\\s=][^\\r\\n]{0,1000}?)[ \\t]*(?=\\r?\\n|$)`, 'dg'),
    gate: { keywords: ['env '] },
    accept: (secret, text, span, matchStart) => {
      const name = /ENV[ \t]+([\w.-]+)/.exec(text.slice(matchStart, span.start));
      if (name === null || !holdsSecret(name[1]!) || isPlaceholderValue(secret) || namesASecret(secret)) return false;
      const lineStart = text.lastIndexOf('\n', matchStart - 1) + 1;
      if (/^[ \t]*$/.test(text.slice(lineStart, matchStart))) return true;
      return readsAsPassword(secret);
    },
  },
  // A kubeconfig user's private key, base64: `client-key-data: …` (its certificate beside it is public).
  { id: 'private-key', pattern: /client-key-data["']?[ \t]*:[ \t]*["']?([A-Za-z0-9+/]{40,20000}={0,2})/dg, gate: { keywords: ['client-key-data'] } },
  // Values of a line's directive, with no operator; short ones too (keepalived's is at most 8).
  {
    id: 'config-password',
    pattern: /(?:^|\n)[ \t]*(?:requirepass|masterauth|auth_pass)[ \t]{1,20}(?:"([^"\r\n]{1,1000})"|([^\s"]{1,1000}))/dg,
    gate: { keywords: ['pass', 'masterauth'] },
    accept,
  },
  { id: 'config-password', pattern: /(?<![\w-])(?:user|group)[ \t]{1,4}\S{1,100}[ \t]{1,4}insecure-password[ \t]{1,4}(\S{1,1000})/dg, gate: { keywords: ['insecure-password'] }, accept },
  // Net-SNMP's `createUser name SHA "auth pass phrase" AES "privacy pass phrase"`: both.
  {
    id: 'config-password',
    pattern: /(?<![\w-])createUser[ \t]{1,4}(?:-e[ \t]{1,4}\S{1,100}[ \t]{1,4})?\S{1,100}[ \t]{1,4}(?:MD5|SHA[\w-]{0,8})[ \t]{1,4}(?:"([^"\r\n]{1,1000})"|(\S{1,1000}))/dg,
    gate: { keywords: ['createuser'] },
    accept,
  },
  {
    id: 'config-password',
    pattern: /(?<![\w-])createUser[ \t][^\r\n]{1,300}?[ \t](?:AES|DES)[\w-]{0,8}[ \t]{1,4}(?:"([^"\r\n]{1,1000})"|(\S{1,1000}))/dg,
    gate: { keywords: ['createuser'] },
    accept,
  },
  // cloud-init: `chpasswd:` then `list: |` (or `users:`) and `user:password` lines below.
  { id: 'config-password', pattern: /chpasswd:[\s\S]{0,200}?\n[ \t]{2,40}(?:-[ \t]{1,4})?[\w.-]{1,64}:(?!\s)([^\s:]{1,1000})(?=[ \t]*\r?\n|$)/dg, gate: { keywords: ['chpasswd'] }, accept },
  // Hardhat's and Foundry's networks: `accounts: ["0x…"]`, the deployer's private key.
  { id: 'ethereum-private-key', pattern: /accounts["']?[ \t]{0,4}:[ \t]{0,4}\[[ \t]{0,4}["'](?:0x)?([0-9a-fA-F]{64})["']/dg, gate: { keywords: ['accounts'] } },
  // A PuTTY key file's private part: `Private-Lines: N` and N lines of base64.
  { id: 'putty-private-key', pattern: /Private-Lines:[ \t]{0,4}[0-9]{1,4}\r?\n((?:[A-Za-z0-9+/=]{1,64}(?:\r?\n|$)){1,200})/dg, gate: { keywords: ['private-lines'] } },
  // The whole file when it is all there, as a PEM private key's block is taken whole.
  { id: 'putty-private-key', pattern: /PuTTY-User-Key-File-[0-9]:[^\r\n]{0,200}\r?\n(?:[^\r\n]{0,200}\r?\n){1,400}?Private-MAC:[ \t]{0,4}[0-9a-fA-F]{40,128}/dg, gate: { keywords: ['key'] } },
  // `Basic` and base64 of `user:password`, under whatever header (`X-Upstream-Auth: Basic …`).
  {
    id: 'basic-credentials',
    pattern: /(?<![\w-])(?:Basic|basic|BASIC)[ \t]{1,4}([A-Za-z0-9+/]{8,1000}={0,2})(?![\w+/=-])/dg,
    gate: { keywords: ['basic '] },
    accept: (secret) => {
      const decoded = Buffer.from(secret, 'base64').toString('latin1');
      const colon = decoded.indexOf(':');
      return /^[\x20-\x7e]+$/.test(decoded) && colon > 0 && colon < decoded.length - 1 && !isPlaceholderValue(decoded.slice(colon + 1));
    },
  },
  // Consul's ACL tokens in its agent configuration: `tokens { initial_management = "<uuid>" … }`.
  {
    id: 'config-password',
    pattern: /(?<![\w-])tokens[ \t]{0,4}=?[ \t]{0,4}\{[^{}]{0,2000}?(?<![\w-])[a-z_]{1,40}[ \t]{0,4}=[ \t]{0,4}"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/dg,
    gate: { keywords: ['token'] },
  },
  // OpenVPN's static key (`tls-auth`, `tls-crypt`): lines of 32 hex digits between its own BEGIN and END.
  {
    id: 'private-key',
    pattern: /-----BEGIN OpenVPN Static key V1-----\r?\n((?:[ \t]*[0-9a-f]{32}[ \t]*\r?\n){1,64})[ \t]*-----END OpenVPN Static key V1-----/dg,
    gate: { keywords: ['openvpn static key'] },
  },
  // Cisco IOS' local users and enable passwords: `username u privilege 15 password 0 …`, `enable secret 5 …`.
  {
    id: 'config-password',
    // Read anywhere when a privilege level or an encryption type marks the device's syntax (prose says "username and
    // password authentication"), at a line's start otherwise.
    pattern: new RegExp(
      [
        '(?:username(?<![\\w-]username)[ \\t]{1,4}\\S{1,64}[ \\t]{1,4}privilege[ \\t]{1,4}[0-9]{1,2}[ \\t]{1,4}(?:password|secret)[ \\t]{1,4}(?:[0-9][ \\t]{1,4})?(\\S{1,1000}))',
        '(?:(?:username(?<![\\w-]username)[ \\t]{1,4}\\S{1,64}|enable(?<![\\w-]enable))[ \\t]{1,4}(?:password|secret)[ \\t]{1,4}[0-9][ \\t]{1,4}(\\S{1,1000}))',
        '(?:(?:^|\\n)[ \\t]*(?:username[ \\t]{1,4}\\S{1,64}|enable)[ \\t]{1,4}(?:password|secret)[ \\t]{1,4}(\\S{1,1000}))',
      ].join('|'),
      'dg',
    ),
    // Gated by the words every match holds, which other rules' gates scan for already.
    gate: { keywords: ['password', 'secret'] },
    accept,
  },
  // Postfix's `sasl_passwd`: `[smtp.host]:587 user:password`, the password to the line's end (an app password has spaces).
  {
    id: 'config-password',
    // The relay host is a name with dots (`[DEBUG]` starts a log line).
    pattern: /(?:^|\n)[ \t]*\[[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}\](?::[0-9]{1,5})?[ \t]{1,20}[^\s:]{1,100}:([^\r\n]{4,200}?)[ \t]*(?=\r?\n|$)/dg,
    gate: { characters: ']' },
    accept,
  },
  // Cisco IOS' IKE pre-shared key (`crypto isakmp key … address …`) and SNMP community strings (`snmp-server community … RO`).
  { id: 'config-password', pattern: /crypto(?<![\w-]crypto)[ \t]{1,4}isakmp[ \t]{1,4}key[ \t]{1,4}(?:[0-9][ \t]{1,4})?(\S{1,1000})[ \t]{1,4}(?:address|hostname)/dg, gate: { keywords: ['isakmp'] }, accept },
  { id: 'config-password', pattern: /snmp-server(?<![\w-]snmp-server)[ \t]{1,4}community[ \t]{1,4}(?:[0-9][ \t]{1,4})?(\S{1,1000})/dg, gate: { keywords: ['snmp-server'] }, accept },
  // Vault's unseal and recovery keys as `vault operator init` prints them: `Unseal Key 1: …`.
  { id: 'vault-token', pattern: /(?:Unseal|Recovery) Key(?: [0-9]{1,2})?:[ \t]{1,4}([A-Za-z0-9+/]{40,100}={0,2})(?![A-Za-z0-9+/=])/dg, gate: { keywords: ['nseal key', 'ecovery key'] } },
  // Cisco IOS' key chains: `key-string …` (after a type 7, the reversible encryption of one).
  { id: 'config-password', pattern: /key-string(?<![\w-]key-string)(?:[ \t]{1,4}[0-7](?=[ \t]))?[ \t]{1,4}(\S{1,1000})/dg, gate: { keywords: ['key-string'] }, accept },
  // A bare `key` whose value is drawn: rclone's B2 remote (`key = K00…`), a service's `"key": "…"`. Only a long value in
  // both cases with digits: a bare `key` names a lookup everywhere else (`key: password`, `key = user:42`).
  {
    id: 'generic-assignment',
    // PHP's `'key' => '…'` too, and Laravel's `base64:` before its key.
    pattern: /(?:"(?:key|Key|KEY)"|'(?:key|Key|KEY)'|key(?<![\w.-]key))[ \t]{0,4}(?:=>|[=:])[ \t]{0,4}["']?(?:base64:)?([A-Za-z0-9+/_-]{16,200}={0,2})(?![\w+/=-]|\.\w|[ \t]{0,4}\()/dg,
    gate: { keywords: ['key'] },
    // Not a key file's path (`key: "certs/AuthKey_….p8"`), a public key's (`public key: …` as `wg show` prints it), nor a
    // CI cache's (`key: node-cache-Linux-x64-npm-<sha256>`).
    accept: (secret, text, _span, matchStart) =>
      /[a-z]/.test(secret) && /[A-Z]/.test(secret) && /[0-9]/.test(secret) && !secret.startsWith('AAAA') && !isCacheKey(secret) && isHighEntropy(secret) && !/\bpub(?:lic)?[ \t_-]?$/i.test(text.slice(Math.max(0, matchStart - 10), matchStart)),
  },
  // A Junos SNMP community (`community "…" {`) and what `netsh wlan show profile … key=clear` prints as `Key Content`.
  { id: 'config-password', pattern: /community(?<![\w-]community)[ \t]{1,4}"?([^"\s{;]{1,1000})"?[ \t]{0,4}\{/dg, gate: { keywords: ['community'] }, accept },
  { id: 'config-password', pattern: /Key Content[ \t]{0,40}:[ \t]{1,4}([^\r\n]{1,1000}?)[ \t]*(?=\r?\n|$)/dg, gate: { keywords: ['key content'] }, accept },
  // A passphrase of words in a `.env` file, unquoted (dotenv reads to the line's end): `ENCRYPTION_PASSPHRASE=glass otter river 028 lantern`.
  {
    id: 'generic-assignment',
    // At a line's start, or quoted in a sentence (`it works: ENCRYPTION_PASSPHRASE=…`).
    pattern: /(?:^|[\n \t])(?:export[ \t]+)?[A-Z][A-Z0-9_]{0,40}PASSPHRASE[A-Z0-9_]{0,40}=((?:[^\s#"'$][^\s#]{0,40}[ \t]){2,12}[^\s#]{1,40})[ \t]*(?=\r?\n|$)/dg,
    gate: { keywords: ['pass'] },
    accept,
  },
  // An app password (Google's): four groups of four letters after a password's name.
  {
    id: 'app-password',
    pattern: /(?:password|passwd|pass|pwd)["']?(?:[ \t]{0,20}[:=,][ \t]{0,4}|[ \t]{1,20})["']?([A-Za-z]{4} [A-Za-z]{4} [A-Za-z]{4} [A-Za-z]{4})(?![A-Za-z])/dgi,
    gate: { keywords: ['pass', 'pwd'] },
  },
];

const SECRET_HEADER = /^(?:passwords?|passwd|pwd|pass|secrets?|tokens?|api[ _-]?keys?|keys?|secret access key|secret key|client secret|credentials?)$/i;

/**
 * A Markdown table's or a CSV file's column headed as a password, secret, token or key (AWS's
 * `Access key ID,Secret access key`): each row's cell there, unless it is left empty, says where
 * the secret is (`see vault`) or stands for one.
 */
export function findTableSecrets(text: string): FoundSecret[] {
  return [...markdownTableSecrets(text), ...csvSecrets(text), ...keyValueRowSecrets(text)];
}

/** Names only, each perhaps quoted (a password manager's or a browser's export: `"url","username","password",…`). */
const CSV_HEADER = /^("?)[A-Za-z][A-Za-z0-9 _-]{0,40}\1(?:,("?)[A-Za-z][A-Za-z0-9 _-]{0,40}\2){1,30}$/;
const CSV_SECRET_HEADER = /^"?(?:secret access key|secret key|client secret|(?:login_)?passwords?|passwd|secrets?|tokens?|api[ _-]?keys?|access tokens?)"?$/i;

function csvSecrets(text: string): FoundSecret[] {
  if (!text.includes(',')) return [];
  const found: FoundSecret[] = [];
  let header: string[] | null = null;
  let column = -1;
  let offset = 0;
  for (const line of text.split('\n')) {
    const cells = line.replace(/\r$/, '').split(',');
    if (header && cells.length === header.length) {
      const start = offset + cells.slice(0, column).reduce((n, cell) => n + cell.length + 1, 0);
      const cell = cells[column]!.replace(/^"|"$/g, '');
      const lead = cells[column]!.startsWith('"') ? 1 : 0;
      if (cell.length >= 8 && !/\s/.test(cell) && !isPlaceholderValue(cell)) found.push({ start: start + lead, end: start + lead + cell.length });
    } else if (CSV_HEADER.test(line.replace(/\r$/, ''))) {
      // A header: a line of names only, one of them a secret's column (not a bare `key`: code's argument lists have those).
      column = cells.findIndex((name) => CSV_SECRET_HEADER.test(name.trim()));
      header = column >= 0 ? cells : null;
    } else header = null;
    offset += line.length + 1;
  }
  return found;
}

/**
 * A table of names and values, one pair a row: AsciiDoc's `|Passwort |…`, Markdown's `| Password | … |`,
 * Confluence's `|| Password | … |`. The value must read as a password (a table documenting an option
 * holds a word or a sentence there).
 */
const KEY_VALUE_ROW =
  /\|{1,2}[ \t]*(?:passwords?|passwd|pwd|pass|passwort|kennwort|contraseña|mot de passe|senha|wachtwoord|hasło|secret|token|api[ _-]?key|secret key|access key secret)[ \t]*\|{1,2}[ \t]*`?([^|`\s]{4,200})`?[ \t]*\|?[ \t]*(?=\r?\n|$)/dgi;

function keyValueRowSecrets(text: string): FoundSecret[] {
  if (!text.includes('|')) return [];
  const found: FoundSecret[] = [];
  KEY_VALUE_ROW.lastIndex = 0;
  for (let row = KEY_VALUE_ROW.exec(text); row; row = KEY_VALUE_ROW.exec(text)) {
    // The row's first cell: only spaces before its bar on the line (the regex starts at the bar, which V8 finds fast).
    const lineStart = text.lastIndexOf('\n', row.index - 1) + 1;
    if (!/^[ \t]*\|?$/.test(text.slice(lineStart, row.index))) continue;
    const [start, end] = row.indices![1]!;
    // Chosen (digits among three kinds: `TSESTree.Token` is a type) or drawn.
    const value = row[1]!;
    if (((characterClasses(value) >= 3 && /[0-9]/.test(value)) || isHighEntropy(value)) && !isPlaceholderValue(value) && !namesASecret(value)) found.push({ start, end });
  }
  return found;
}

function markdownTableSecrets(text: string): FoundSecret[] {
  if (!text.includes('---') || !/\|[ \t]{0,4}:?-{3}/.test(text)) return [];
  const found: FoundSecret[] = [];
  const lines = text.split('\n');
  let offset = 0;
  let column = -1;
  let sawSeparator = false;
  for (const line of lines) {
    const start = offset;
    offset += line.length + 1;
    if (!line.trimStart().startsWith('|')) {
      column = -1;
      sawSeparator = false;
      continue;
    }
    const cells = cellsOf(line, start);
    if (column < 0) {
      // Or named as a variable that holds one (`DB_PASS`, `API_TOKEN`).
      column = cells.findIndex((cell) => SECRET_HEADER.test(cell.text) || (/^[A-Z][A-Z0-9_]{1,60}$/.test(cell.text) && holdsSecret(cell.text)));
      continue;
    }
    if (!sawSeparator) {
      sawSeparator = cells.every((cell) => /^:?-{3,}:?$/.test(cell.text));
      if (!sawSeparator) column = -1;
      continue;
    }
    const raw = cells[column];
    // A value in code spans: `` `…` ``.
    const cell = raw && /^`[^`]+`$/.test(raw.text) ? { text: raw.text.slice(1, -1), start: raw.start + 1 } : raw;
    // A secret's name in the column (`DB_PASS`) says which one, not what it is.
    // A note in parentheses (`(vault)`) says where it is.
    if (cell && cell.text.length >= 4 && !/\s/.test(cell.text) && !isPlaceholderValue(cell.text) && !namesASecret(cell.text) && !/^`?\$|^\(.*\)$/.test(cell.text)) found.push({ start: cell.start, end: cell.start + cell.text.length });
  }
  return found;
}

function cellsOf(line: string, lineStart: number): { text: string; start: number }[] {
  const cells: { text: string; start: number }[] = [];
  let at = line.indexOf('|') + 1;
  while (at > 0 && at < line.length) {
    const next = line.indexOf('|', at);
    const end = next < 0 ? line.length : next;
    const raw = line.slice(at, end);
    const lead = raw.length - raw.trimStart().length;
    cells.push({ text: raw.trim(), start: lineStart + at + lead });
    if (next < 0) break;
    at = next + 1;
  }
  return cells;
}
