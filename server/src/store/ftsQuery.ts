/** How full-text matches of several terms combine: memories with every term, or with any. */
export type TermOperator = 'AND' | 'OR';

/** A term as FTS5 is asked for it, quoted: the phrase of the tokens it makes (`decode_peer` → "decod peer"), no operators. */
export function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** An FTS5 query of terms joined by one operator. */
export function ftsQueryOf(terms: readonly string[], operator: TermOperator): string {
  return terms.map(ftsPhrase).join(` ${operator} `);
}
