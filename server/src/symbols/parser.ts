import type { Language as LoadedLanguage, Parser as LanguageParser, ParseOptions, Tree } from 'web-tree-sitter';
import { grammarWasmPath, runtimeWasmPath } from './grammarFiles';
import { GRAMMAR_FILE, type LanguageId } from './languages';
import { webTreeSitter } from './webTreeSitter';

let runtimeReady: Promise<void> | undefined;
const languages = new Map<string, Promise<LoadedLanguage>>();
const parsers = new Map<LanguageId, LanguageParser>();

function initRuntime(): Promise<void> {
  if (!runtimeReady) {
    runtimeReady = webTreeSitter().Parser.init({ locateFile: () => runtimeWasmPath() });
    // A failed start is not cached, so a later call can retry.
    runtimeReady.catch(() => (runtimeReady = undefined));
  }
  return runtimeReady;
}

/** The grammar for a language, loaded on first use; languages sharing a grammar share one load. */
export async function grammarFor(language: LanguageId): Promise<LoadedLanguage> {
  await initRuntime();
  const file = GRAMMAR_FILE[language];
  let loaded = languages.get(file);
  if (!loaded) {
    loaded = webTreeSitter().Language.load(grammarWasmPath(file));
    // A failed load is not cached, so a later call can retry (e.g. after the file is staged).
    loaded.catch(() => languages.delete(file));
    languages.set(file, loaded);
  }
  return loaded;
}

/** A parser for a language, created once. Parsing is synchronous, so callers never share it mid-parse. */
export async function parserFor(language: LanguageId): Promise<LanguageParser> {
  const grammar = await grammarFor(language);
  let parser = parsers.get(language);
  if (!parser) {
    parser = new (webTreeSitter().Parser)();
    parser.setLanguage(grammar);
    parsers.set(language, parser);
  }
  return parser;
}

/**
 * How long tree-sitter may work on a text of `length` characters, to parse it or to query its
 * tree: real code parses at about 3 MB a second and queries faster, while binary garbage (64 KB
 * once) can send error recovery, and a query over what it left, on for minutes.
 */
export function treeSitterBudgetMs(length: number): number {
  return 1000 + length / 1000;
}

/** `parser.parse` stopped past its budget: null then, as for no tree at all. The caller owns the tree. */
export function parseWithinBudget(parser: LanguageParser, text: string, oldTree: Tree | null = null, options: Omit<ParseOptions, 'progressCallback'> = {}): Tree | null {
  const deadline = performance.now() + treeSitterBudgetMs(text.length);
  let stopped = false;
  // tree-sitter calls this as the parse advances; returning true cancels it.
  const tree = parser.parse(text, oldTree, { ...options, progressCallback: () => (stopped ||= performance.now() > deadline) });
  if (!stopped) return tree;
  tree?.delete();
  // A cancelled parse resumes on the parser's next call unless it is reset.
  parser.reset();
  return null;
}
