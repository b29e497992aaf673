import { declarations, type Declaration } from './declarations';
import { languageForPath } from './languages';
import { parserFor } from './parser';
import { regionDeclarations, type RegionOptions } from './regionDeclarations';
import { symbolsForRanges } from './symbolsForRanges';

/** The innermost declaration containing a line, by qualified name; null outside any, or in a language without symbols. */
export function innermostAt(decls: readonly Declaration[], line: number): string | null {
  return symbolsForRanges(decls, [{ startLine: line, endLine: line }])[0] ?? null;
}

/**
 * The qualified name of the declaration enclosing `line` (0-based) in `text` (a file read from
 * disk: recall from the CLI, a hook, MCP). Only the top-level region holding the line is parsed
 * when it can be trusted (regionDeclarations.ts), else the whole text: a whole parse of an
 * 11 KB file took ~5–7 ms of a served recall's ~10.
 */
export async function symbolAt(path: string, text: string, line: number, options: Pick<RegionOptions, 'maxShare'> = {}): Promise<string | null> {
  const language = languageForPath(path);
  if (!language) return null;
  const inRegion = await regionDeclarations(await parserFor(language), language, text, [{ startLine: line, endLine: line }], options);
  const parsed = inRegion ?? (await declarations(text, language));
  return innermostAt(parsed.declarations, line);
}
