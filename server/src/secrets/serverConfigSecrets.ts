import type { FoundSecret, SecretRule } from './secretRules';
import { isHighEntropy, isPlaceholderValue } from './secretValues';

/**
 * Secrets in servers' own configuration syntaxes, marked by a directive or a file's format
 * rather than by a key that names a secret: HAProxy's `stats auth`, nginx's `secure_link_md5`,
 * a Redis ACL's `>password`, a JAAS file's `user_<name>="…"`, Consul's and Nomad's gossip
 * `encrypt`, Alertmanager's PagerDuty `routing_key`, ProFTPD's `SQLConnectInfo`, PgBouncer's
 * `userlist.txt`, PPP's `chap-secrets`; Redis' AUTH in its protocol and `CONFIG GET requirepass`'s answer.
 */

const accept = (secret: string) => !isPlaceholderValue(secret);

/** A JAAS login module's users (ZooKeeper's and Kafka's `DigestLoginModule`, `PlainLoginModule`): `user_admin="…"`. */
const JAAS_USER = /(?<![\w-])user_[\w.-]{1,60}[ \t]{0,4}=[ \t]{0,4}"([^"\r\n]{1,1000})"/dg;

function findJaasUsers(text: string): FoundSecret[] {
  if (!text.includes('LoginModule')) return [];
  return matchedValues(JAAS_USER, text);
}

/** PgBouncer's `auth_file`: a line of two quoted strings, the user and the password (or its hash, which logs in as well), perhaps quoted after a colon. */
const USERLIST_LINE = /(?:^|:[ \t])[ \t]*"[^"\r\n]{1,100}"[ \t]{1,8}"([^"\r\n]{1,1000})"[ \t]*\r?$/dgm;

function findUserlistPasswords(text: string): FoundSecret[] {
  // Named, or shown as it is: a line's second string a SCRAM or md5 verifier, as only userlist.txt writes them.
  if (!/userlist|auth_file/.test(text) && !/^[ \t]*"[^"\r\n]{1,100}"[ \t]{1,8}"(?:SCRAM-SHA-256\$|md5[0-9a-f]{32}")/m.test(text)) return [];
  return matchedValues(USERLIST_LINE, text);
}

/** PPP's `chap-secrets` and `pap-secrets`: `client server secret [addresses]` lines; the secret perhaps quoted. */
const PPP_SECRET_LINE = /^[ \t]*[^#\s]\S{0,100}[ \t]+\S{1,100}[ \t]+(?:"([^"\r\n]{1,1000})"|([^\s"]{1,1000}))(?=[ \t]|\r?$)/dgm;

function findPppSecrets(text: string): FoundSecret[] {
  if (!/(?:chap|pap)-secrets/.test(text)) return [];
  const found: FoundSecret[] = [];
  PPP_SECRET_LINE.lastIndex = 0;
  for (let match = PPP_SECRET_LINE.exec(text); match; match = PPP_SECRET_LINE.exec(text)) {
    const group = match[1] !== undefined ? 1 : 2;
    const [start, end] = match.indices![group]!;
    if (accept(match[group]!) && match[group] !== '*') found.push({ start, end });
  }
  return found;
}

function matchedValues(pattern: RegExp, text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const [start, end] = match.indices![1]!;
    if (accept(match[1]!)) found.push({ start, end });
  }
  return found;
}

export const SERVER_CONFIG_RULES: readonly SecretRule[] = [
  { id: 'config-password', pattern: /(?<![\w-])stats[ \t]{1,4}auth[ \t]{1,4}[^\s:]{1,100}:(\S{1,1000})/dg, gate: { keywords: ['auth'] }, accept },
  // The secret is the expression's last word, after the variables it is hashed with.
  { id: 'config-password', pattern: /secure_link_md5[ \t]{1,4}"[^"\r\n]{0,500}[ \t]([^\s"$]{6,200})"/dg, gate: { keywords: ['secure_link_md5'] }, accept },
  // A Redis ACL line or command: `user worker on >… ~jobs:* +@list`, `ACL SETUSER worker on >…`.
  {
    id: 'config-password',
    pattern: /(?:(?:^|\n)[ \t]*user|ACL[ \t]{1,4}SETUSER)[ \t]{1,4}[\w.-]{1,100}(?:[ \t]{1,4}[^\s>]\S{0,200}){0,20}?[ \t]{1,4}>(\S{1,1000})/dg,
    gate: { keywords: ['acl setuser', 'on >', 'on ~'] },
    accept,
  },
  { id: 'config-password', find: findJaasUsers, gate: { keywords: ['loginmodule'] } },
  // A gossip key: 32 bytes in base64 (`consul keygen`), in HCL, JSON or on the agent's command line.
  {
    id: 'config-password',
    pattern: /(?:(?<![\w-])["']?encrypt["']?[ \t]{0,4}[=:][ \t]{0,4}|-encrypt[= ])["']?([A-Za-z0-9+/]{22,86}={0,2})(?![\w+/=-])/dg,
    gate: { keywords: ['encrypt'] },
    accept: (secret) => isHighEntropy(secret) && accept(secret),
  },
  // PagerDuty's integration key (32 hex digits) as Alertmanager and others name it; a message queue's `routing_key` is words.
  {
    id: 'pagerduty-integration-key',
    pattern: /(?:routing_key|service_key|integration_key)["']?[ \t]{0,4}[:=][ \t]{0,4}["']?([0-9a-f]{32})(?![\w-])/dg,
    gate: { keywords: ['key'] },
  },
  { id: 'config-password', pattern: /SQLConnectInfo[ \t]{1,20}\S{1,200}[ \t]{1,20}\S{1,100}[ \t]{1,20}(\S{1,1000})/dg, gate: { keywords: ['sqlconnectinfo'] }, accept },
  { id: 'config-password', find: findUserlistPasswords, gate: { keywords: ['serlist', 'auth', 'scram-sha-256$', '"md5'] } },
  // Redis' AUTH as the protocol writes it, escaped in strace's output: `*2\r\n$4\r\nAUTH\r\n$17\r\n…\r\n` (a user first in `*3`).
  {
    id: 'config-password',
    pattern: /AUTH\\r\\n(?:\$[0-9]{1,4}\\r\\n[^\\"\r\n]{1,200}\\r\\n)?\$[0-9]{1,4}\\r\\n([^\\"\r\n]{1,1000})\\r\\n/dg,
    gate: { keywords: ['auth'] },
    accept,
  },
  // redis-cli's answer to `CONFIG GET requirepass`: `1) "requirepass"` then `2) "…"`.
  { id: 'config-password', pattern: /1\) "(?:requirepass|masterauth)"\r?\n2\) "([^"\r\n]{1,1000})"/dg, gate: { keywords: ['pass', 'masterauth'] }, accept },
  // Caddy's DNS challenge: `dns cloudflare <token>` in a Caddyfile's `tls` block.
  { id: 'config-password', pattern: /(?<![\w-])dns[ \t]{1,4}cloudflare[ \t]{1,4}([A-Za-z0-9_-]{20,200})(?![\w-])/dg, gate: { keywords: ['dns cloudflare'] }, accept },
  { id: 'config-password', find: findPppSecrets, gate: { keywords: ['secret'] } },
];
