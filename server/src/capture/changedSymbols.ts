import { changedDeclarations, declarations, fileDeclarations, forgetFile, languageForPath, symbolsForRanges, type Declaration, type LineRange } from '../symbols';
import type { TextDiff } from './diffTexts';

/**
 * Qualified names of the declarations a change touches: those of the new text overlapping its
 * changed lines, then those of the old text overlapping its removed lines — so a deleted function
 * is named, and so is a function that only lost lines — unless a member of it is already named.
 * A created or deleted file is named by its top-level declarations ("greet, Greeter"), not by
 * every method in it. Deduplicated, in order of appearance. Files without a grammar give [].
 * When the new text has syntax errors, the last good parse names the change (or, without one, the
 * file level does). Parsing never throws: a failure gives [] and is passed to `onParseError`, for the caller to
 * log with its own context. A file with a kept tree (opened in the editor, or parsed whole
 * before) has its change parsed incrementally; without one, only the top-level regions around
 * the change are parsed (see `regionDeclarations`), and no tree is kept.
 */
export async function changedSymbols(
  path: string,
  before: string | null,
  after: string | null,
  diff: TextDiff,
  onParseError?: (error: Error) => void,
): Promise<string[]> {
  const language = languageForPath(path);
  if (!language) return [];
  try {
    if (after === null) {
      forgetFile(path);
      return topLevelNames((await declarations(before ?? '', language)).declarations);
    }
    if (before === null) return topLevelNames((await fileDeclarations(path, language, after)).declarations);
    const changed = await changedDeclarations(path, language, before, after, diff.oldRanges, diff.newRanges);
    if (changed.afterHasErrors) {
      // Mid-edit code that does not parse: tree-sitter's recovery can put the change in the wrong
      // declaration. Use the last good parse instead — the declarations enclosing where each change
      // starts (the lines above a change are the same in both versions) — or else the file level.
      if (changed.beforeHasErrors) return [];
      const starts = diff.newRanges.map((r) => ({ startLine: r.startLine, endLine: r.startLine }));
      return symbolsForRanges(changed.before, [...diff.oldRanges, ...starts]);
    }
    const inNew = symbolsForRanges(changed.after, diff.newRanges);
    const inOld = symbolsForRanges(changed.before, diff.oldRanges);
    // An old enclosing declaration adds nothing when a member of it is already named.
    const fromOld = inOld.filter((name) => !inNew.some((named) => named.startsWith(`${name}.`)));
    return [...new Set([...inNew, ...fromOld])];
  } catch (error) {
    onParseError?.(error instanceof Error ? error : new Error(String(error)));
    return [];
  }
}

/** Declarations no other declaration encloses, in source order. */
function topLevelNames(decls: readonly Declaration[]): string[] {
  const names = decls.filter((decl) => !decls.some((outer) => encloses(outer, decl))).map((decl) => decl.name);
  return [...new Set(names)];
}

function encloses(outer: Declaration, inner: LineRange & { readonly name: string }): boolean {
  return inner.name.startsWith(`${outer.name}.`) && outer.startLine <= inner.startLine && inner.endLine <= outer.endLine;
}
