import type { FoundSecret } from './secretRules';
import { holdsSecret } from './keyNames';
import { isPlaceholderValue, namesASecret, readsAsPassword } from './secretValues';

/**
 * Values that stand apart from the name they are given by position in a list: the items of a
 * YAML list under a secret's name (`api_keys:` then `- …`), and the words a shell's `read`
 * splits a here-string into (`read -r DB_USER DB_PASS <<< "svc …"`: the second word is DB_PASS).
 */

/** A YAML key (its line up to the `:` that ends it) and the list items under it, as deep as it or deeper. */
const KEY_LINE = /^([ \t]*)([\w.-]{1,80})[ \t]*$/;
const ITEMS = /(?:[ \t]*-[ \t]+[^\r\n]{1,4096}(?:\r?\n|$)){1,100}/y;
const ITEM = /-[ \t]+(["']?)([^\r\n"']{1,4096}?)\1[ \t]*\r?$/dgm;

/** `read [-r] [-a …] NAME… <<< "…"`: the last name takes the rest of the line, as `read` does. */
const READ_HERE_STRING = /(?<![\w-])read((?:[ \t]{1,4}-[a-zA-Z]{1,4})*)((?:[ \t]{1,4}[A-Za-z_]\w{0,60}){1,10})[ \t]{0,4}<<<[ \t]{0,4}(?:"([^"\r\n]{1,2000})"|'([^'\r\n]{1,2000})')/dg;

/** Drawn, or chosen as a password is: a list of names or flags is neither. */
function readsAsSecret(value: string): boolean {
  return !isPlaceholderValue(value) && !namesASecret(value) && readsAsPassword(value);
}

function yamlList(text: string, colon: number, found: FoundSecret[]): void {
  const lineStart = text.lastIndexOf('\n', colon - 1) + 1;
  if (colon - lineStart > 120) return;
  const key = KEY_LINE.exec(text.slice(lineStart, colon));
  // A list's name is often plural: `api_keys`, `passwords`.
  if (!key || (!holdsSecret(key[2]!) && !holdsSecret(key[2]!.replace(/[sS]$/, '')))) return;
  const itemsStart = text.indexOf('\n', colon) + 1;
  ITEMS.lastIndex = itemsStart;
  const items = ITEMS.exec(text);
  if (!items) return;
  // As deep as the key or deeper (YAML lets a list sit at its key's own depth); shallower is another key's.
  if (items[0].length - items[0].trimStart().length < key[1]!.length) return;
  ITEM.lastIndex = 0;
  for (let item = ITEM.exec(items[0]); item; item = ITEM.exec(items[0])) {
    const [start, end] = item.indices![2]!;
    if (readsAsSecret(item[2]!)) found.push({ start: itemsStart + start, end: itemsStart + end, rule: 'generic-assignment' });
  }
}

export function findListedValues(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  // Each `:` that ends a line: most text has few, and a key's line is read back from it.
  for (let colon = text.indexOf(':\n'); colon !== -1; colon = text.indexOf(':\n', colon + 1)) yamlList(text, colon, found);
  for (let colon = text.indexOf(':\r\n'); colon !== -1; colon = text.indexOf(':\r\n', colon + 1)) yamlList(text, colon, found);
  READ_HERE_STRING.lastIndex = text.includes('<<<') ? 0 : text.length;
  for (let read = READ_HERE_STRING.exec(text); read; read = READ_HERE_STRING.exec(text)) {
    // `-a NAME` reads an array, `-d` a delimiter: words are not matched to names then.
    if (/[ad]/.test(read[1]!)) continue;
    // Double quotes expand `$…` and backticks: such a line reads its values from elsewhere.
    if (read[3] !== undefined && /[$`]/.test(read[3])) continue;
    const names = read[2]!.trim().split(/[ \t]+/);
    const group = read[3] !== undefined ? 3 : 4;
    const [valueStart] = read.indices![group]!;
    const words = [...read[group]!.matchAll(/\S+/g)];
    names.forEach((name, i) => {
      const word = words[i];
      if (!word || !holdsSecret(name)) return;
      const last = i === names.length - 1 ? words[words.length - 1]! : word;
      const start = valueStart + word.index;
      const end = valueStart + last.index + last[0].length;
      const value = text.slice(start, end);
      if (!isPlaceholderValue(value) && !value.startsWith('$')) found.push({ start, end, rule: 'command-line-password' });
    });
  }
  return found;
}
