/**
 * The arguments of a call (or a SQL `VALUES` tuple) read from after its `(`: where each starts and
 * ends, and where a string literal alone (perhaps with a conversion after it) holds its text.
 */

export interface Argument {
  readonly start: number;
  readonly end: number;
  /** The span inside the quotes when the argument is a string literal (with at most a conversion after it). */
  readonly literal?: { readonly start: number; readonly end: number };
}

const MAX_ARGUMENT = 1000;
/** Brackets open inside one argument, at most: code nests a few; text that only opens them (`f(a, f(a, …`) ends the reading early. */
const MAX_DEPTH = 12;
const OPENERS = '([{';
const CLOSERS = ')]}';

/** The arguments of a call whose `(` ends at `from`, up to `count` of them; fewer when the call ends sooner or reads oddly. */
export function callArguments(text: string, from: number, count: number): Argument[] {
  const args: Argument[] = [];
  let at = from;
  while (args.length < count) {
    while (at < text.length && /\s/.test(text[at]!) && at - from < 4000) at++;
    const start = at;
    let literal: Argument['literal'];
    // Where the literal's closing quote ends.
    let literalEnd = 0;
    let depth = 0;
    for (; at < text.length && at - start < MAX_ARGUMENT; at++) {
      const c = text[at]!;
      if (c === '\\' && at === start && (text[at + 1] === '"' || text[at + 1] === "'")) {
        // A literal in code written inside a string (a notebook's JSON): `\"…\"`.
        const close = text.indexOf(`\\${text[at + 1]}`, at + 2);
        if (close < 0 || close - at > MAX_ARGUMENT || text.slice(at + 2, close).includes('\n')) return args;
        literal = { start: at + 2, end: close };
        literalEnd = close + 2;
        at = close + 1;
      } else if (c === '"' || c === "'" || c === '`') {
        const open = at;
        for (at++; at < text.length && text[at] !== c && text[at] !== '\n' && at - open < MAX_ARGUMENT; at++) if (text[at] === '\\') at++;
        if (text[at] !== c) return args;
        // Alone, or after a string prefix (Python's `b"…"`).
        if (open === start || (open === start + 1 && /[bBrRuU]/.test(text[start]!))) {
          literal = { start: open + 1, end: at };
          literalEnd = at + 1;
        }
      } else if (OPENERS.includes(c)) {
        if (++depth > MAX_DEPTH) return args;
      }
      else if (CLOSERS.includes(c)) {
        if (depth === 0) break;
        depth--;
      } else if (c === ',' && depth === 0) break;
    }
    let end = at;
    while (end > start && /\s/.test(text[end - 1]!)) end--;
    if (end === start || at >= text.length || at - start >= MAX_ARGUMENT) return args;
    // Only a literal alone, or followed by a conversion (`"…".toCharArray()`), counts as one.
    const after = literal ? text.slice(literalEnd, end) : '';
    args.push({ start, end, literal: literal && /^(?:\.\w{1,20}\(\))?$/.test(after) ? literal : undefined });
    if (text[at] !== ',') break;
    at++;
  }
  return args;
}
