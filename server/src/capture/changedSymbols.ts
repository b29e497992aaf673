import { declarations, languageForPath, symbolsForRanges, type Declaration, type LanguageId, type LineRange } from '../symbols';
import type { TextDiff } from './diffTexts';

/**
 * Qualified names of the declarations a change touches: those of the new text overlapping its
 * changed lines, then those of the old text overlapping its removed lines — so a deleted function
 * is named, and so is a function that only lost lines — unless a member of it is already named.
 * A created or deleted file is named by its top-level declarations ("greet, Greeter"), not by
 * every method in it. Deduplicated, in order of appearance. Files without a grammar give [].
 * Parsing never throws: a failure gives [] and is passed to `onParseError`, for the caller to
 * log with its own context.
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
    if (before === null || after === null) return topLevelNames(await declarationsOf(after ?? before ?? '', language));
    const inNew = symbolsForRanges(await declarationsOf(after, language), diff.newRanges);
    const inOld = symbolsForRanges(await declarationsOf(before, language), diff.oldRanges);
    // An old enclosing declaration adds nothing when a member of it is already named.
    const fromOld = inOld.filter((name) => !inNew.some((named) => named.startsWith(`${name}.`)));
    return [...new Set([...inNew, ...fromOld])];
  } catch (error) {
    onParseError?.(error instanceof Error ? error : new Error(String(error)));
    return [];
  }
}

async function declarationsOf(text: string, language: LanguageId): Promise<readonly Declaration[]> {
  return (await declarations(text, language)).declarations;
}

/** Declarations no other declaration encloses, in source order. */
function topLevelNames(decls: readonly Declaration[]): string[] {
  const names = decls.filter((decl) => !decls.some((outer) => encloses(outer, decl))).map((decl) => decl.name);
  return [...new Set(names)];
}

function encloses(outer: Declaration, inner: LineRange & { readonly name: string }): boolean {
  return inner.name.startsWith(`${outer.name}.`) && outer.startLine <= inner.startLine && inner.endLine <= outer.endLine;
}
