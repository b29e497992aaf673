import type { Parser as LanguageParser, Range } from 'web-tree-sitter';
import { declarationsInTree, type ParsedDeclarations } from './declarations';
import type { LanguageId } from './languages';
import { balancedAt } from './lexicalBalance';
import { parseWithinBudget } from './parser';
import type { LineRange } from './symbolsForRanges';
import { lineStarts, topLevelRegions } from './topLevelRegions';
import { lastAtOrBelow } from '../util/sortedSearch';

/** Past this share of the text, parsing the regions saves little over parsing the whole file. */
export const MAX_REGION_SHARE = 0.5;

export interface RegionOptions {
  /** Lines whose regions are parsed too, only to see that they have no syntax errors. */
  readonly checked?: readonly LineRange[];
  /** The largest share of the text worth parsing as regions (`MAX_REGION_SHARE`). */
  readonly maxShare?: number;
}

/** C#'s `namespace X;` qualifies every declaration after it, so its line is in every region parse. */
const FILE_SCOPED_NAMESPACE_LINE = /^namespace\s+[\w.@]+\s*;/gm;

/**
 * The declarations of `text` overlapping `lines`, as `declarationsInTree` finds them in a tree of
 * the whole text, from a parse of only the top-level regions holding those lines (tree-sitter's
 * included ranges: positions stay those of the whole text). Null when the regions cannot be
 * trusted — they do not start and end where brackets, strings and comments balance, their parse
 * has syntax errors, or they are most of the text — and the caller must parse the whole text.
 * `hasErrors` is then always false: syntax errors outside the regions go unseen.
 */
export async function regionDeclarations(
  parser: LanguageParser,
  language: LanguageId,
  text: string,
  lines: readonly LineRange[],
  options: RegionOptions = {},
): Promise<ParsedDeclarations | null> {
  const parsed = [...lines, ...(options.checked ?? [])];
  const starts = lineStarts(text);
  const regions = topLevelRegions(text, starts, language === 'csharp' ? [...parsed, ...fileScopeLines(text, starts)] : parsed);
  const ranges = regions.map((region) => rangeOf(text, starts, region));
  // No ranges would parse the whole text.
  if (ranges.length === 0) return { declarations: [], hasErrors: false };
  const covered = ranges.reduce((sum, range) => sum + range.endIndex - range.startIndex, 0);
  if (covered > text.length * (options.maxShare ?? MAX_REGION_SHARE)) return null;
  if (!balancedAt(text, language, ranges.flatMap((range) => [range.startIndex, range.endIndex]))) return null;
  const tree = parseWithinBudget(parser, text, null, { includedRanges: ranges });
  if (!tree) return null;
  try {
    if (tree.rootNode.hasError) return null;
    return await declarationsInTree(tree, language, lines);
  } finally {
    tree.delete();
  }
}

/** The lines of C# file-scoped namespace declarations. */
function fileScopeLines(text: string, starts: readonly number[]): LineRange[] {
  return [...text.matchAll(FILE_SCOPED_NAMESPACE_LINE)].map((match) => {
    const line = lineAt(starts, match.index);
    return { startLine: line, endLine: line };
  });
}

/** The range of whole lines of a region; indices and columns in UTF-16 code units, as web-tree-sitter takes them. */
function rangeOf(text: string, starts: readonly number[], region: LineRange): Range {
  const startIndex = starts[region.startLine]!;
  const next = starts[region.endLine + 1];
  const endPosition = next === undefined ? { row: region.endLine, column: text.length - starts[region.endLine]! } : { row: region.endLine + 1, column: 0 };
  return { startIndex, endIndex: next ?? text.length, startPosition: { row: region.startLine, column: 0 }, endPosition };
}

/** The line holding `index`. */
function lineAt(starts: readonly number[], index: number): number {
  return lastAtOrBelow(starts, index);
}
