import { declarations, type Declaration } from './declarations';
import { languageForPath } from './languages';
import { symbolsForRanges } from './symbolsForRanges';

/** The innermost declaration containing a line, by qualified name; null outside any, or in a language without symbols. */
export function innermostAt(decls: readonly Declaration[], line: number): string | null {
  return symbolsForRanges(decls, [{ startLine: line, endLine: line }])[0] ?? null;
}

/** The qualified name of the declaration enclosing `line` (0-based) in `text`, parsed fresh. */
export async function symbolAt(path: string, text: string, line: number): Promise<string | null> {
  const language = languageForPath(path);
  if (!language) return null;
  const parsed = await declarations(text, language);
  return innermostAt(parsed.declarations, line);
}
