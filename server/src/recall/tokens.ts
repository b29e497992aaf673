/**
 * Token counts are estimated, not measured: Anthropic's tokenizer is not public, so any library
 * would be an approximation too. Claude's tokens average about 3.5 characters of English or
 * code; rounding up per text keeps a budget conservative. (docs/recall.md)
 */
export const CHARS_PER_TOKEN = 3.5;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
