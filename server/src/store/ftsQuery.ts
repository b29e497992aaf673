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

/**
 * An FTS5 query of words joined by one operator, each word the AND of its parts (a compound
 * word's own terms, see FillWord in termMatchSets.ts).
 */
export function ftsQueryOfWords(words: readonly (readonly string[])[], operator: TermOperator): string {
  if (operator === 'AND') return ftsQueryOf(words.flat(), 'AND');
  return words.map((parts) => (parts.length > 1 ? `(${ftsQueryOf(parts, 'AND')})` : ftsQueryOf(parts, 'AND'))).join(' OR ');
}
