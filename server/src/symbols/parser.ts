import type { Language as LoadedLanguage, Parser as LanguageParser } from 'web-tree-sitter';
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
