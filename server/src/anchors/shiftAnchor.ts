/** Lines an anchor covers: 0-based, inclusive. */
export interface LineSpan {
  readonly start: number;
  readonly end: number;
}

/** One incremental edit of a document, as LSP sends it (the range is in the text before the edit). */
export interface TextEdit {
  readonly range: { readonly start: { readonly line: number; readonly character: number }; readonly end: { readonly line: number; readonly character: number } };
  readonly text: string;
}

export type Shifted = { readonly kind: 'moved'; readonly span: LineSpan } | { readonly kind: 'gone' };

/**
 * Where anchored lines are after one edit: moved by the lines inserted or deleted above them,
 * grown or shrunk by an edit inside them, or gone when the edit replaced all of them.
 * `lineLength(n)` is the length of line n before the edit.
 */
export function shiftSpan(span: LineSpan, edit: TextEdit, lineLength: (line: number) => number): Shifted {
  const { start, end } = edit.range;
  const inserted = edit.text.split('\n').length - 1;
  const delta = inserted - (end.line - start.line);
  // Entirely above (an edit that ends at the very start of the first anchored line counts).
  if (end.line < span.start || (end.line === span.start && end.character === 0 && !(start.line === span.start && edit.text === ''))) {
    return { kind: 'moved', span: { start: span.start + delta, end: span.end + delta } };
  }
  if (start.line > span.end) return { kind: 'moved', span };
  const coversStart = start.line < span.start || (start.line === span.start && start.character === 0);
  const coversEnd = end.line > span.end || (end.line === span.end && end.character >= lineLength(span.end));
  if (coversStart && coversEnd) return { kind: 'gone' };
  const newStart = Math.min(span.start, start.line);
  return { kind: 'moved', span: { start: newStart, end: Math.max(newStart, span.end + delta) } };
}
