import { withLfEndings } from '../util/lineEndings';

const COMMENT_LINE = /^\s*(?:\/\/+|#+|--|;+|\*+(?!\/)|\/\*+|<!--)\s?(.*?)\s*(?:\*\/|-->)?\s*$/;

/** The text of a comment line (`// x`, `# x`, `/* x *\/`, ` * x`), or null for code. */
function commentText(line: string): string | null {
  const match = COMMENT_LINE.exec(line);
  if (!match) return null;
  const text = match[1]!.replace(/^[*\s]+/, '').trim();
  return text.startsWith('@') ? null : text; // JSDoc tags are not the rule.
}

/**
 * What to prefill as the rule when a selection is pinned: the comment inside the selection or
 * right above it (the developer usually wrote the rule there), else the selected text itself.
 */
export function suggestRule(text: string, startLine: number, endLine: number, maxLength = 300): string {
  const lines = withLfEndings(text).split('\n');
  const collect = (from: number, to: number) => {
    const words: string[] = [];
    for (let i = from; i <= to && i < lines.length; i++) {
      const comment = commentText(lines[i]!);
      if (comment) words.push(comment);
    }
    return words.join(' ').trim();
  };
  let above = startLine - 1;
  while (above >= 0 && commentText(lines[above]!) !== null) above--;
  const fromAbove = collect(above + 1, startLine - 1);
  const inside = collect(startLine, endLine);
  const chosen = fromAbove || inside || lines.slice(startLine, endLine + 1).join(' ').replace(/\s+/g, ' ').trim();
  return chosen.length > maxLength ? `${chosen.slice(0, maxLength - 1)}…` : chosen;
}
