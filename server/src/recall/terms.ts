/**
 * Extra index terms so that identifiers and paths match their parts: `parseConfig`,
 * `parse_config` and `ParseConfig` all add `parse` and `config`; `src/db/pool.ts` adds each segment.
 */
export function identifierParts(text: string): string[] {
  const parts = new Set<string>();
  for (const token of text.match(/[A-Za-z0-9_$.\/-]+/g) ?? []) {
    for (const segment of token.split(/[\/.\-]+/)) {
      if (!segment) continue;
      const words = segment
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
        .split(/[\s_$]+/)
        .filter(Boolean);
      if (words.length > 1 || segment !== token) {
        for (const word of words) parts.add(word.toLowerCase());
      }
    }
  }
  return [...parts];
}

/**
 * English function words: they match nearly every memory, so a question full of them would
 * otherwise pull in everything. Words that carry meaning in code (`not`, `new`, `get`, `all`,
 * `null`, `true`) are kept.
 */
const STOP_WORDS = new Set(
  ('a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its me my of on or our ' +
    'she so than that the their them then there these they this those to was we were what when where which who whom why will with would ' +
    'you your about after again also am any because before being both each few further here just more most other over own same should ' +
    'some such through too under until up very while let please').split(' '),
);

/** Turns free text into a safe FTS5 query: every word quoted, OR-ed, function words left out; null when nothing is left. */
export function toFtsQuery(text: string): string | null {
  const words = new Set<string>();
  for (const word of text.match(/[\p{L}\p{N}_]+/gu) ?? []) {
    const lower = word.toLowerCase();
    if ((word.length > 1 || /\d/.test(word)) && !STOP_WORDS.has(lower)) words.add(lower);
    // Split before lowercasing: the case boundaries are what mark `parseConfig`'s parts.
    for (const part of identifierParts(word)) words.add(part);
    if (words.size >= 64) break;
  }
  if (words.size === 0) return null;
  return [...words].map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ');
}
