import { sha256Hex } from '../util/hashing';
import { withLfEndings } from '../util/lineEndings';
import type { Anchor, TextRange } from '../memory/types';

const CONTEXT_LINES = 2;

export function hashContent(text: string): string {
  return sha256Hex(withLfEndings(text)).slice(0, 32);
}

/**
 * Builds an anchor for whole lines `startLine..endLine` (zero-based, inclusive) of a file: the
 * hash of those lines and the lines around them, so the code can be found again after it moves.
 */
export function anchorLines(path: string, text: string, startLine: number, endLine: number): Omit<Anchor, 'stale'> {
  const lines = withLfEndings(text).split('\n');
  if (startLine < 0 || endLine < startLine || endLine >= lines.length) {
    throw new RangeError(`lines ${startLine + 1}-${endLine + 1} are outside ${path}, which has ${lines.length} lines`);
  }
  const range: TextRange = { startLine, startCharacter: 0, endLine, endCharacter: lines[endLine]!.length };
  return {
    path,
    range,
    contentHash: hashContent(lines.slice(startLine, endLine + 1).join('\n')),
    contextBefore: lines.slice(Math.max(0, startLine - CONTEXT_LINES), startLine).join('\n'),
    contextAfter: lines.slice(endLine + 1, endLine + 1 + CONTEXT_LINES).join('\n'),
  };
}

/**
 * Whether lines `startLine..endLine` of a text hold no code, only whitespace: what is left of
 * pinned code deleted all but its indentation. Such an anchor has lost its code (stale), rather
 * than governing a blank line.
 */
export function onlyWhitespace(text: string, startLine: number, endLine: number): boolean {
  return withLfEndings(text)
    .split('\n')
    .slice(startLine, endLine + 1)
    .every((line) => line.trim() === '');
}
