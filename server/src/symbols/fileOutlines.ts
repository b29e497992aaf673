import type { Node, Parser as LanguageParser, Tree } from 'web-tree-sitter';
import { declarationsInTree, type Declaration } from './declarations';
import type { LanguageId } from './languages';
import { balancedAt } from './lexicalBalance';
import { parseWithinBudget } from './parser';
import type { LineRange } from './symbolsForRanges';
import { editBetween } from './textEdit';
import { lineStarts } from './topLevelRegions';

/**
 * What is known of the last version of a file: its text, its top-level chunks (rows of the
 * top-level nodes of its tree, merged where one declaration spans several, e.g. a decorator and
 * its class) and every declaration in it, as a whole-tree query finds them. Only of a text
 * that parsed without errors.
 */
export interface FileOutline {
  readonly text: string;
  readonly language: LanguageId;
  /** Ascending, row-disjoint; rows between them hold only whitespace. */
  readonly chunks: readonly LineRange[];
  readonly declarations: readonly Declaration[];
}

/**
 * C#'s `namespace X;` qualifies the declarations after it, which are not inside its node: the
 * only construct whose names reach past its own chunk.
 */
export function outlinesApply(language: LanguageId): boolean {
  return language !== 'csharp';
}

/** The outline of a whole tree of `text`, given every declaration in it. Null when the tree has errors. */
export function outlineOf(tree: Tree, text: string, language: LanguageId, declarations: readonly Declaration[]): FileOutline | null {
  if (tree.rootNode.hasError) return null;
  return { text, language, chunks: chunksOf(tree.rootNode, declarations, 0), declarations };
}

/**
 * The outline of `after`, the next version of `outline`'s text, from a parse of only the
 * top-level chunks the change touches, with the chunk before and after it when the change is at
 * their edge (what is appended to a statement may continue it). The rest of the declarations
 * move with the lines around them. Null when the region cannot be trusted — it does not start
 * and end where brackets, strings and comments balance, or its parse has syntax errors — or is
 * more than `maxShare` of the text: the caller then parses the file as it did without an outline.
 */
export async function nextOutline(parser: LanguageParser, outline: FileOutline, after: string, maxShare: number): Promise<FileOutline | null> {
  const edit = editBetween(outline.text, after);
  if (!edit) return outline;
  const oldRows = regionRows(outline.chunks, lastRow(outline.text), edit.startPosition.row, edit.oldEndPosition.row);
  const across = (d: Declaration) => d.startLine < oldRows.startLine !== d.endLine < oldRows.startLine || d.startLine <= oldRows.endLine !== d.endLine <= oldRows.endLine;
  // Chunks hold whole declarations, so none crosses the region's edge; an outline where one does is not trusted.
  if (outline.declarations.some(across)) return null;
  const shift = edit.newEndPosition.row - edit.oldEndPosition.row;
  const starts = lineStarts(after);
  const newRows = { startLine: oldRows.startLine, endLine: oldRows.endLine + shift };
  const startIndex = starts[newRows.startLine]!;
  const next = starts[newRows.endLine + 1];
  const endIndex = next ?? after.length;
  if (endIndex - startIndex > after.length * maxShare) return null;
  if (!balancedAt(after, outline.language, [startIndex, endIndex])) return null;
  const endPosition = next === undefined ? { row: newRows.endLine, column: after.length - starts[newRows.endLine]! } : { row: newRows.endLine + 1, column: 0 };
  const tree = parseWithinBudget(parser, after, null, { includedRanges: [{ startIndex, endIndex, startPosition: { row: newRows.startLine, column: 0 }, endPosition }] });
  if (!tree) return null;
  try {
    if (tree.rootNode.hasError) return null;
    const inRegion = (await declarationsInTree(tree, outline.language)).declarations;
    const before = outline.declarations.filter((d) => d.endLine < oldRows.startLine);
    const behind = outline.declarations.filter((d) => d.startLine > oldRows.endLine);
    const moved = <T extends LineRange>(range: T): T => ({ ...range, startLine: range.startLine + shift, endLine: range.endLine + shift });
    return {
      text: after,
      language: outline.language,
      chunks: [
        ...outline.chunks.filter((c) => c.endLine < oldRows.startLine),
        ...chunksOf(tree.rootNode, inRegion, newRows.startLine),
        ...outline.chunks.filter((c) => c.startLine > oldRows.endLine).map(moved),
      ],
      declarations: [...before, ...inRegion, ...behind.map(moved)],
    };
  } finally {
    tree.delete();
  }
}

/** The last row of a text, counting '\n' as tree-sitter does. */
function lastRow(text: string): number {
  let rows = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) rows++;
  return rows;
}

/**
 * Rows of the old text (whose last row is `last`) to parse again for a change of rows `first` to
 * `end`: the chunks holding them, and the chunks holding the nearest non-blank rows before and
 * after the change.
 */
function regionRows(chunks: readonly LineRange[], last: number, first: number, end: number): LineRange {
  let startLine = 0;
  for (const chunk of chunks) if (chunk.startLine < first) startLine = chunk.startLine;
  let endLine = last;
  for (let i = chunks.length - 1; i >= 0; i--) if (chunks[i]!.endLine > end) endLine = chunks[i]!.endLine;
  return { startLine, endLine };
}

/** Row-disjoint chunks of the top-level nodes of `root` (rows from `from` on), merged with the declarations spanning them. */
function chunksOf(root: Node, declarations: readonly Declaration[], from: number): LineRange[] {
  const spans: LineRange[] = declarations.map((d) => ({ startLine: d.startLine, endLine: d.endLine }));
  for (let i = 0; i < root.childCount; i++) {
    const child = root.child(i);
    if (!child) continue;
    const start = child.startPosition;
    const end = child.endPosition;
    // A node that ends at the start of a row (with its newline) does not hold that row.
    const endLine = end.column === 0 && end.row > start.row ? end.row - 1 : end.row;
    if (endLine >= from) spans.push({ startLine: Math.max(start.row, from), endLine });
  }
  spans.sort((a, b) => a.startLine - b.startLine);
  const chunks: LineRange[] = [];
  for (const span of spans) {
    const previous = chunks[chunks.length - 1];
    if (previous && span.startLine <= previous.endLine) chunks[chunks.length - 1] = { startLine: previous.startLine, endLine: Math.max(previous.endLine, span.endLine) };
    else chunks.push(span);
  }
  return chunks;
}

/** Outlines of recently changed files, bounded by count and text size, least recently used first out. */
export class FileOutlines {
  private readonly files = new Map<string, FileOutline>();
  private chars = 0;

  constructor(
    readonly capacity = 64,
    readonly maxChars = 8 * 1024 * 1024,
  ) {}

  get(path: string): FileOutline | undefined {
    return this.files.get(path);
  }

  put(path: string, outline: FileOutline): void {
    this.forget(path);
    if (outline.text.length > this.maxChars) return;
    this.files.set(path, outline);
    this.chars += outline.text.length;
    for (const [oldest, entry] of this.files) {
      if (this.files.size <= this.capacity && this.chars <= this.maxChars) break;
      this.files.delete(oldest);
      this.chars -= entry.text.length;
    }
  }

  forget(path: string): void {
    const entry = this.files.get(path);
    if (!entry) return;
    this.files.delete(path);
    this.chars -= entry.text.length;
  }
}
