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
