import path from 'node:path';

/** Languages whose declarations Engram can name. Every other file is tagged at file level only. */
export type LanguageId = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'rust' | 'java' | 'csharp' | 'c' | 'cpp' | 'ruby';

const LANGUAGE_BY_EXTENSION: ReadonlyMap<string, LanguageId> = new Map<string, LanguageId>([
  ['.ts', 'typescript'],
  ['.mts', 'typescript'],
  ['.cts', 'typescript'],
  ['.tsx', 'tsx'],
  ['.js', 'javascript'],
  ['.jsx', 'javascript'],
  ['.mjs', 'javascript'],
  ['.cjs', 'javascript'],
  ['.py', 'python'],
  ['.pyi', 'python'],
  ['.go', 'go'],
  ['.rs', 'rust'],
  ['.java', 'java'],
  ['.cs', 'csharp'],
  ['.c', 'c'],
  ['.h', 'c'],
  ['.cc', 'cpp'],
  ['.cpp', 'cpp'],
  ['.cxx', 'cpp'],
  ['.c++', 'cpp'],
  ['.hh', 'cpp'],
  ['.hpp', 'cpp'],
  ['.hxx', 'cpp'],
  ['.h++', 'cpp'],
  ['.ipp', 'cpp'],
  ['.rb', 'ruby'],
  ['.rake', 'ruby'],
  ['.gemspec', 'ruby'],
]);

const LANGUAGE_BY_FILE_NAME: ReadonlyMap<string, LanguageId> = new Map<string, LanguageId>([
  ['Rakefile', 'ruby'],
  ['Gemfile', 'ruby'],
]);

/**
 * The grammar wasm in @vscode/tree-sitter-wasm that parses each language. It ships no plain C
 * grammar; the C++ grammar parses C that does not use C++ keywords as identifiers.
 */
export const GRAMMAR_FILE: Readonly<Record<LanguageId, string>> = {
  typescript: 'tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-tsx.wasm',
  javascript: 'tree-sitter-javascript.wasm',
  python: 'tree-sitter-python.wasm',
  go: 'tree-sitter-go.wasm',
  rust: 'tree-sitter-rust.wasm',
  java: 'tree-sitter-java.wasm',
  csharp: 'tree-sitter-c-sharp.wasm',
  c: 'tree-sitter-cpp.wasm',
  cpp: 'tree-sitter-cpp.wasm',
  ruby: 'tree-sitter-ruby.wasm',
};

/** The language of a file from its name, or null when Engram cannot name its declarations. */
export function languageForPath(filePath: string): LanguageId | null {
  const base = path.basename(filePath);
  const byName = LANGUAGE_BY_FILE_NAME.get(base);
  if (byName) return byName;
  return LANGUAGE_BY_EXTENSION.get(path.extname(base).toLowerCase()) ?? null;
}
