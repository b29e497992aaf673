// Stages the tree-sitter wasm files the symbol tagger loads at run time: the web-tree-sitter
// runtime and one grammar per language. server/src/symbols/grammarFiles.ts looks for them in
// a `grammars` folder next to the bundle.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

/**
 * The grammar files named in languages.ts, read from its source so that adding a language there
 * cannot leave its grammar out of the package.
 */
function grammarFileNames() {
  const source = readFileSync(path.join(root, 'server', 'src', 'symbols', 'languages.ts'), 'utf8');
  const names = new Set(source.match(/tree-sitter-[\w-]+\.wasm/g) ?? []);
  if (names.size === 0) throw new Error('no grammar files named in server/src/symbols/languages.ts');
  return [...names].sort();
}

/** Copies the runtime and grammar wasm files into outDir; returns the copied files' paths. */
export function stageGrammars(outDir) {
  mkdirSync(outDir, { recursive: true });
  const grammarDir = path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
  const sources = [
    require.resolve('web-tree-sitter/tree-sitter.wasm'),
    ...grammarFileNames().map((name) => path.join(grammarDir, name)),
  ];
  return sources.map((source) => {
    const target = path.join(outDir, path.basename(source));
    copyFileSync(source, target);
    return target;
  });
}
