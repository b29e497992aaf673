/**
 * web-tree-sitter, loaded through `require` so that esbuild bundles its CommonJS build. From an
 * `import`, esbuild picks the ES module build, whose `import.meta.url` is empty in a CommonJS
 * bundle and breaks loading the runtime wasm.
 */
const webTreeSitter: typeof import('web-tree-sitter') = require('web-tree-sitter');

export const { Language, Parser, Query } = webTreeSitter;
