export type ChangeKind = 'created' | 'edited' | 'deleted';

/** Titles name at most this many symbols, then say how many more. */
const MAX_TITLE_SYMBOLS = 3;

/** U+2212, so counts read as "+12 −3" rather than with a hyphen. */
const MINUS = '\u2212';

const VERB: Readonly<Record<ChangeKind, string>> = { created: 'Created', edited: 'Edited', deleted: 'Deleted' };

/**
 * A deterministic title for a diff memory:
 * "Edited Parser.parseExpr, Parser.peek (+12 −3) in src/parser.ts", "Created src/util.ts (+40)",
 * "Created greet, Greeter in src/a.ts (+10)", "Deleted src/old.ts (−120)",
 * "Edited a, b, c and 4 more (+1 −1) in x.ts".
 * An edit's counts follow its symbols, because they measure the change to them; a created or
 * deleted file's counts are the file's size, so they follow the path.
 */
export function diffTitle(kind: ChangeKind, path: string, symbols: readonly string[], added: number, removed: number): string {
  const counts = `(${countsOf(kind, added, removed)})`;
  if (symbols.length === 0) return `${VERB[kind]} ${path} ${counts}`;
  const named = symbolList(symbols);
  return kind === 'edited' ? `${VERB[kind]} ${named} ${counts} in ${path}` : `${VERB[kind]} ${named} in ${path} ${counts}`;
}

function countsOf(kind: ChangeKind, added: number, removed: number): string {
  if (kind === 'created') return `+${added}`;
  if (kind === 'deleted') return `${MINUS}${removed}`;
  return `+${added} ${MINUS}${removed}`;
}

function symbolList(symbols: readonly string[]): string {
  const shown = symbols.slice(0, MAX_TITLE_SYMBOLS).join(', ');
  const more = symbols.length - MAX_TITLE_SYMBOLS;
  return more > 0 ? `${shown} and ${more} more` : shown;
}
