import type { SecretSpan } from './secretRules';
import { isPlaceholderValue } from './secretValues';

// `@tcp(…)`, `@unix(…)`, a registered network's (`@cloudsql-mysql(project:region:instance)/db`), `@(host:port)` (no
// protocol named: TCP), or `@/db`: the driver's default address.
const DSN_ADDRESS = /@(?:tcp6?\(|unix\(|[a-z][a-z0-9-]{2,30}\((?=[\w.:[\]-]{1,255}\)\/)|\((?=[\w.:[\]-]{1,255}\)\/)|\/(?=[\w$-]))/g;
const NOT_IN_PASSWORD = /[\s"'`:]/;
const USER_CHARACTER = /[\w.%+-]/;

/**
 * Go's MySQL driver: `user:password@tcp(host:3306)/db`, with no scheme. Read back from each
 * address, which is rare and literal, rather than tried at every word: the password is what
 * lies between it and the colon after the user (no space, quote or colon in it; an `@` may be:
 * the driver splits at the last one).
 */
export function findDsnPasswords(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  DSN_ADDRESS.lastIndex = 0;
  for (let address = DSN_ADDRESS.exec(text); address; address = DSN_ADDRESS.exec(text)) {
    const end = address.index;
    let start = end;
    while (start > 0 && end - start < 256 && !NOT_IN_PASSWORD.test(text[start - 1]!)) start--;
    if (start === end || text[start - 1] !== ':') continue;
    let user = start - 1;
    // The user may be a shell variable: `${MYSQL_USER}:…@tcp(…)`.
    const variable = text[user - 1] === '}' ? text.lastIndexOf('${', user - 1) : -1;
    if (variable >= 0 && user - variable <= 64 && /^\$\{\w{1,60}\}$/.test(text.slice(variable, user))) user = variable;
    else {
      while (user > 0 && start - 1 - user < 64 && USER_CHARACTER.test(text[user - 1]!)) user--;
      if (user === start - 1 || (user > 0 && USER_CHARACTER.test(text[user - 1]!))) continue;
    }
    if (!isPlaceholderValue(text.slice(start, end))) spans.push({ start, end });
  }
  return spans;
}
