import { callArguments } from './callArguments';
import { holdsGeneratedSecret, holdsSecret } from './keyNames';
import type { FoundSecret } from './secretRules';
import { isSecretUnderKey, looksGenerated } from './secretValues';

/**
 * Secrets a SQL `INSERT` gives by position: `INSERT INTO service_accounts (name, api_key) VALUES
 * ('etl', '…')` names the column in one list and holds its value in the same place of another
 * (seed files, migrations, a session's psql). Each tuple of `VALUES (…), (…)` is read; a quoted
 * literal under a column that holds a secret is judged as a value under that key.
 */

const INSERT = /\binsert[ \t]+(?:(?:or[ \t]+\w{1,10}|ignore)[ \t]+)?into[ \t]+[\w."`[\]]{1,200}[ \t]*\(([^()]{1,2000})\)\s{0,20}values\s{0,20}\(/giy;
const INSERT_START = /\binsert[ \t]/gi;
/** A tuple's columns past this many are not read: a wide table's other columns cost time and hold nothing. */
const MAX_COLUMNS = 64;
const MAX_TUPLES = 1000;
/** callArguments reads a value this far at most. */
const MAX_VALUE_READ = 1000;

export const SQL_INSERT_KEYWORDS = ['insert '];

export function findSqlInsertSecrets(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  INSERT_START.lastIndex = 0;
  for (let start = INSERT_START.exec(text); start; start = INSERT_START.exec(text)) {
    INSERT.lastIndex = start.index;
    const insert = INSERT.exec(text);
    if (!insert) continue;
    const columns = insert[1]!.split(',').map((c) => c.trim().replace(/^["`[]|["`\]]$/g, ''));
    const secretColumns = columns.flatMap((name, i) => (i < MAX_COLUMNS && (holdsSecret(name) || holdsGeneratedSecret(name)) ? [i] : []));
    INSERT_START.lastIndex = INSERT.lastIndex;
    if (secretColumns.length === 0) continue;
    let from = INSERT.lastIndex;
    for (let tuple = 0; tuple < MAX_TUPLES; tuple++) {
      const args = callArguments(text, from, Math.min(columns.length, MAX_COLUMNS));
      for (const i of secretColumns) {
        const literal = args[i]?.literal;
        if (!literal) continue;
        const value = text.slice(literal.start, literal.end);
        const name = columns[i]!;
        if (!holdsSecret(name) && !looksGenerated(value)) continue;
        if (isSecretUnderKey(name, value, text, literal)) found.push({ start: literal.start, end: literal.end });
      }
      // The next tuple: `), (` after this one's last argument.
      const last = args[args.length - 1];
      // On past what was read (or could have been, when a value ran too long): an `INSERT` inside it is not read again.
      INSERT_START.lastIndex = Math.max(INSERT_START.lastIndex, last ? last.end : from + MAX_VALUE_READ);
      const next = last && args.length === columns.length ? /^\s{0,20}\)\s{0,20},\s{0,20}\(/.exec(text.slice(last.end, last.end + 64)) : null;
      if (!next) break;
      from = last!.end + next[0].length;
    }
  }
  return found;
}
