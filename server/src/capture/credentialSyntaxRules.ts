import { anyCasePrefix } from './secretPatterns';
import type { SecretRule, SecretSpan } from './secretRules';
import { isPlaceholderValue } from './secretValues';

/**
 * Passwords known by where they are written rather than by their shape or a key name: in a URL
 * or a DSN, after an HTTP authorization scheme, in SQL, PowerShell and .netrc.
 */

function acceptNonPlaceholder(secret: string): boolean {
  return !isPlaceholderValue(secret);
}

const DSN_ADDRESS = /@(?:tcp6?|unix)\(/g;
const NOT_IN_PASSWORD = /[\s@"'`:]/;
const USER_CHARACTER = /[\w.%+-]/;

/**
 * Go's MySQL driver: `user:password@tcp(host:3306)/db`, with no scheme. Read back from each
 * address, which is rare and literal, rather than tried at every word: the password is what
 * lies between it and the colon after the user (no space, quote, `@` or colon in it).
 */
function findDsnPasswords(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  DSN_ADDRESS.lastIndex = 0;
  for (let address = DSN_ADDRESS.exec(text); address; address = DSN_ADDRESS.exec(text)) {
    const end = address.index;
    let start = end;
    while (start > 0 && end - start < 256 && !NOT_IN_PASSWORD.test(text[start - 1]!)) start--;
    if (start === end || text[start - 1] !== ':') continue;
    let user = start - 1;
    while (user > 0 && start - 1 - user < 64 && USER_CHARACTER.test(text[user - 1]!)) user--;
    if (user === start - 1 || (user > 0 && USER_CHARACTER.test(text[user - 1]!))) continue;
    if (!isPlaceholderValue(text.slice(start, end))) spans.push({ start, end });
  }
  return spans;
}

function sqlWord(word: string): string {
  return `(?:${word}|${word.toUpperCase()})`;
}

export const CREDENTIAL_SYNTAX_RULES: readonly SecretRule[] = [
  {
    id: 'url-password',
    pattern: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/?#@"'`<>]{0,256}:([^\s/?#"'`<>]{1,256})@/dg,
    gate: { keywords: ['://'] },
    accept: acceptNonPlaceholder,
  },
  // Its keywords start with letters others start with (KEYWORD_GATE in secretPatterns.ts).
  { id: 'dsn-password', find: findDsnPasswords, gate: { keywords: ['tcp', 'x('] } },
  // Oracle's `user/password@db`, in a JDBC thin URL or on sqlplus' command line.
  {
    id: 'dsn-password',
    pattern: /(?:thin:|(?<![\w-])sqlplus\s{1,4}(?:-[A-Za-z]{1,20}\s{1,4}){0,3})[\w.$#-]{1,64}\/([^\s@/"']{1,256})@/dg,
    gate: { keywords: ['thin:', 'sql'] },
    accept: acceptNonPlaceholder,
  },
  {
    id: 'authorization-header',
    pattern: new RegExp(
      `${anyCasePrefix('authorization')}["']?\\s{0,4}[:=]\\s{0,4}["']?(?:Bearer|Basic|Token|bearer|basic|token)\\s{1,4}([A-Za-z0-9._~+/-]{8,8192}=*)` +
        `|(?<![A-Za-z0-9])Bearer\\s{1,4}([A-Za-z0-9._~+/-]{20,8192}=*)`,
      'dg',
    ),
    gate: { keywords: ['authorization', 'bearer'] },
    accept: acceptNonPlaceholder,
  },
  // `CREATE USER … IDENTIFIED BY '…'`, `ALTER ROLE … WITH PASSWORD '…'`.
  {
    id: 'sql-password',
    pattern: new RegExp(
      `(?:${sqlWord('identified')}(?:\\s{1,4}${sqlWord('with')}\\s{1,4}\\w{1,40})?\\s{1,4}${sqlWord('by')}` +
        `|${sqlWord('with')}\\s{1,4}(?:${sqlWord('encrypted')}\\s{1,4})?${sqlWord('password')})\\s{1,4}'([^'\\r\\n]{1,1000})'`,
      'dg',
    ),
    gate: { keywords: ['entified', 'pass'] },
    accept: acceptNonPlaceholder,
  },
  // PowerShell: `ConvertTo-SecureString "…" -AsPlainText`.
  {
    id: 'secure-string',
    pattern: /ConvertTo-SecureString\s{1,4}(?:-String\s{1,4})?(?:"([^"\r\n]{1,1000})"|'([^'\r\n]{1,1000})')/dgi,
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
