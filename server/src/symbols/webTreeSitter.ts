/**
 * web-tree-sitter, loaded on first use through `require`: a hook or `engram recall` that parses
 * nothing must not evaluate it at startup, and esbuild must bundle its CommonJS build (from an
 * `import`, esbuild picks the ES module build, whose `import.meta.url` is empty in a CommonJS
 * bundle and breaks loading the runtime wasm).
 */
let loaded: typeof import('web-tree-sitter') | undefined;

export function webTreeSitter(): typeof import('web-tree-sitter') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  loaded ??= require('web-tree-sitter') as typeof import('web-tree-sitter');
  return loaded;
}
