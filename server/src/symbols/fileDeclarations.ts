import type { Parser as LanguageParser, Tree } from 'web-tree-sitter';
import { declarationsInTree, type Declaration, type ParsedDeclarations } from './declarations';
import type { LanguageId } from './languages';
import { parseWithinBudget, parserFor } from './parser';
import { ParsedFiles } from './parsedFiles';
import { MAX_REGION_SHARE, regionDeclarations } from './regionDeclarations';
import { FileOutlines, nextOutline, outlineOf, outlinesApply } from './fileOutlines';
import { removalPoints } from './removalPoints';
import type { LineRange } from './symbolsForRanges';
import { editBetween } from './textEdit';

/**
 * The declarations of both versions of a changed file that overlap the lines it changed (and
 * perhaps others: an outline knows the whole file's; callers keep the overlapping ones).
 */
export interface ChangedDeclarations {
  /** Of the old text, overlapping `oldLines` (and the declarations enclosing those). */
  readonly before: readonly Declaration[];
  /** Of the new text, overlapping `newLines` (and the declarations enclosing those). */
  readonly after: readonly Declaration[];
  /** Whether each version parsed with syntax errors (its declarations may then be wrong). */
  readonly beforeHasErrors: boolean;
  readonly afterHasErrors: boolean;
  /**
   * Only the regions around the changed lines were parsed (see `regionDeclarations`), or only the
   * chunks the change touches, from the file's outline (fileOutlines.ts); no tree was kept.
   */
  readonly regionsOnly: boolean;
}

export interface ChangedDeclarationsOptions {
  /** Parse both versions whole even without a kept tree, as before region parsing (for tests and comparisons). */
  readonly wholeFile?: boolean;
  /** The largest share of a text parsed as regions (`MAX_REGION_SHARE`); tests raise it for small files. */
  readonly maxRegionShare?: number;
}

/** A change tree-sitter could not parse within its budget: nothing known of either side. */
const UNPARSED: ChangedDeclarations = { before: [], after: [], beforeHasErrors: true, afterHasErrors: true, regionsOnly: false };

/** Trees of recently changed files; a save parses only what changed since the last one. */
const parsedFiles = new ParsedFiles();
/** Outlines of recently changed files whose regions cannot be found from their text alone. */
const outlines = new FileOutlines();

/**
 * Declarations of a file's change from `before` to `after`, of the lines it changed only. With a
 * kept tree, `before` comes from it, `after` is parsed incrementally from it and kept for the next
 * change; so a save after a save parses only what changed. Without one, only the top-level
 * regions around the changed lines of each version are parsed, and no tree is kept — the file's
 * next change is cold again, unless opening it (`fileDeclarations`) keeps one. When the regions
 * cannot be trusted, both versions are parsed whole and the new tree is kept, with the file's
 * outline; a change of the version outlined, which comes first, parses only the top-level chunks
 * it touches (an agent session edits the same files again and again).
 */
export async function changedDeclarations(
  path: string,
  language: LanguageId,
  before: string,
  after: string,
  oldLines: readonly LineRange[],
  newLines: readonly LineRange[],
  options: ChangedDeclarationsOptions = {},
): Promise<ChangedDeclarations> {
  const parser = await parserFor(language);
  if (!options.wholeFile) {
    const outlined = await changedInOutline(parser, path, language, before, after, options.maxRegionShare);
    if (outlined) return outlined;
  }
  // Also the old declarations where each change starts: the fallback when the new text does not parse.
  const oldQuery = [...oldLines, ...newLines.map((r) => ({ startLine: r.startLine, endLine: r.startLine }))];
  const cold = !parsedFiles.has(path);
  if (!options.wholeFile && cold) {
    const inRegions = await changedInRegions(parser, language, { before, after, oldQuery, oldLines, newLines }, options.maxRegionShare);
    if (inRegions) return inRegions;
  }
  // A file whose regions could not be found from its text: outlined from this parse, its next
  // change parses only the chunks it touches (a session editing such a file edits it again).
  const outline = !options.wholeFile && cold && outlinesApply(language);
  const oldTree = treeOf(parser, path, language, before);
  if (!oldTree) return UNPARSED;
  let newTree: Tree | null;
  let old: ParsedDeclarations;
  try {
    old = await declarationsInTree(oldTree, language, oldQuery);
    newTree = reparsed(parser, oldTree, before, after);
  } finally {
    oldTree.delete();
  }
  if (!newTree) return { ...UNPARSED, before: old.declarations, beforeHasErrors: old.hasErrors };
  // Kept only once read: a tree in the cache may be taken (and deleted) by the next caller at any await.
  let updated: ParsedDeclarations;
  try {
    updated = await declarationsInTree(newTree, language, outline ? undefined : newLines);
    const outlined = outline && !updated.hasErrors ? outlineOf(newTree, after, language, updated.declarations) : null;
    if (outlined) outlines.put(path, outlined);
  } finally {
    parsedFiles.put(path, { text: after, language, tree: newTree });
  }
  return { before: old.declarations, after: updated.declarations, beforeHasErrors: old.hasErrors, afterHasErrors: updated.hasErrors, regionsOnly: false };
}

/**
 * The change's declarations from the file's outline (see fileOutlines.ts): the old ones known,
 * the new ones from a parse of the chunks it touches. Null when there is no outline of `before`,
 * or the chunks cannot be trusted (the outline is then dropped).
 */
async function changedInOutline(parser: LanguageParser, path: string, language: LanguageId, before: string, after: string, maxShare = MAX_REGION_SHARE): Promise<ChangedDeclarations | null> {
  const outline = outlines.get(path);
  if (!outline) return null;
  // Taken out before the await: another change of the file in the meantime finds none.
  outlines.forget(path);
  if (outline.text !== before || outline.language !== language) return null;
  const next = await nextOutline(parser, outline, after, maxShare);
  if (!next) return null;
  outlines.put(path, next);
  return { before: outline.declarations, after: next.declarations, beforeHasErrors: false, afterHasErrors: false, regionsOnly: true };
}

/**
 * The change's declarations from parses of the regions around its lines, or null when either
 * version's regions cannot be trusted. The new version's regions also hold the places where
 * lines were only removed, so a removal that breaks the syntax is seen there.
 */
async function changedInRegions(
  parser: LanguageParser,
  language: LanguageId,
  change: { readonly before: string; readonly after: string; readonly oldQuery: readonly LineRange[]; readonly oldLines: readonly LineRange[]; readonly newLines: readonly LineRange[] },
  maxShare: number | undefined,
): Promise<ChangedDeclarations | null> {
  const old = await regionDeclarations(parser, language, change.before, change.oldQuery, { maxShare });
  if (!old) return null;
  const checked = removalPoints(change.oldLines, change.newLines);
  const updated = await regionDeclarations(parser, language, change.after, change.newLines, { checked, maxShare });
  if (!updated) return null;
  return { before: old.declarations, after: updated.declarations, beforeHasErrors: false, afterHasErrors: false, regionsOnly: true };
}

/** All declarations of a file's text, as `declarations` finds them; the tree is kept for the file's next change. */
export async function fileDeclarations(path: string, language: LanguageId, text: string): Promise<ParsedDeclarations> {
  const tree = treeOf(await parserFor(language), path, language, text);
  if (!tree) return { declarations: [], hasErrors: true };
  try {
    return await declarationsInTree(tree, language);
  } finally {
    parsedFiles.put(path, { text, language, tree });
  }
}

/** Drops a file's tree, e.g. when the file is deleted. */
export function forgetFile(path: string): void {
  parsedFiles.forget(path);
  outlines.forget(path);
}

/**
 * A tree of `text`, from the file's last tree when there is one; null when tree-sitter ran past
 * its budget (parser.ts). The caller owns it.
 */
function treeOf(parser: LanguageParser, path: string, language: LanguageId, text: string): Tree | null {
  const last = parsedFiles.take(path);
  if (!last) return parseWithinBudget(parser, text);
  try {
    // A tree of other text still helps: edited to this text, it is reused where nothing changed.
    return last.language === language ? reparsed(parser, last.tree, last.text, text) : parseWithinBudget(parser, text);
  } finally {
    last.tree.delete();
  }
}

/** A tree of `after` from a tree of `before`, which is edited to match and stays the caller's; null past the budget. */
function reparsed(parser: LanguageParser, tree: Tree, before: string, after: string): Tree | null {
  const edit = editBetween(before, after);
  if (!edit) return tree.copy();
  tree.edit(edit);
  return parseWithinBudget(parser, after, tree);
}
