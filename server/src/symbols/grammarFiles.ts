import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The web-tree-sitter runtime; every grammar wasm links against it. */
export const RUNTIME_WASM = 'tree-sitter.wasm';

/**
 * The folder the build stages wasm files into (dist/grammars, next to the bundle), or the one
 * ENGRAM_GRAMMARS_DIR names. Null when running from source, where node_modules has them.
 */
function stagedGrammarsDir(): string | null {
  const override = process.env.ENGRAM_GRAMMARS_DIR;
  if (override) return override;
  const besideBundle = path.join(__dirname, 'grammars');
  return existsSync(path.join(besideBundle, RUNTIME_WASM)) ? besideBundle : null;
}

/**
 * Resolves wasm files in node_modules when running from source. Through createRequire rather
 * than require.resolve, which esbuild would try to bundle; the bundle uses the staged folder.
 */
function resolveInNodeModules(request: string): string {
  try {
    return createRequire(__filename).resolve(request);
  } catch (error) {
    throw new Error(`tree-sitter wasm files not found: stage them into ${path.join(__dirname, 'grammars')} or set ENGRAM_GRAMMARS_DIR (${String(error)})`);
  }
}

/** Absolute path of the web-tree-sitter runtime wasm. */
export function runtimeWasmPath(): string {
  const staged = stagedGrammarsDir();
  return staged ? path.join(staged, RUNTIME_WASM) : resolveInNodeModules('web-tree-sitter/tree-sitter.wasm');
}

/** Absolute path of a grammar wasm from @vscode/tree-sitter-wasm, e.g. `tree-sitter-go.wasm`. */
export function grammarWasmPath(fileName: string): string {
  const staged = stagedGrammarsDir();
  if (staged) return path.join(staged, fileName);
  return path.join(path.dirname(resolveInNodeModules('@vscode/tree-sitter-wasm/package.json')), 'wasm', fileName);
}
