import type { Edit, Point } from 'web-tree-sitter';

/**
 * The single edit that turns `before` into `after`: everything between their common head and
 * common tail. Indices and columns are UTF-16 code units, which is what web-tree-sitter's
 * bindings take (they convert to the UTF-16 byte offsets the parser works in). Rows count '\n'
 * only, as tree-sitter's lexer does. Null when the texts are equal.
 */
export function editBetween(before: string, after: string): Edit | null {
  if (before === after) return null;
  const shorter = Math.min(before.length, after.length);
  let head = 0;
  while (head < shorter && before.charCodeAt(head) === after.charCodeAt(head)) head++;
  // Never split a surrogate pair: the edit starts at the whole character.
  if (head > 0 && isHighSurrogate(before.charCodeAt(head - 1))) head--;
  let tail = 0;
  while (tail < shorter - head && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  if (tail > 0 && isLowSurrogate(before.charCodeAt(before.length - tail))) tail--;

  const startPosition = pointAt(before, 0, { row: 0, column: 0 }, head);
  return {
    startIndex: head,
    oldEndIndex: before.length - tail,
    newEndIndex: after.length - tail,
    startPosition,
    oldEndPosition: pointAt(before, head, startPosition, before.length - tail),
    newEndPosition: pointAt(after, head, startPosition, after.length - tail),
  };
}

/** The point of index `to`, counting on from the point `start` of index `from`. */
function pointAt(text: string, from: number, start: Point, to: number): Point {
  let row = start.row;
  let lineStart = from - start.column;
  for (let index = text.indexOf('\n', from); index !== -1 && index < to; index = text.indexOf('\n', index + 1)) {
    row++;
    lineStart = index + 1;
  }
  return { row, column: to - lineStart };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
