// Bundles the extension, the server + CLI, and the webview with esbuild, and stages the native
// SQLite bindings next to the server bundle. `--watch` rebuilds on change; `--production` minifies.
import * as esbuild from 'esbuild';
import { chmodSync, cpSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stageBindings } from './build-bindings.mjs';
import { stageGrammars } from './lib/grammars.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  define: { 'process.env.ENGRAM_VERSION': JSON.stringify(version) },
};

const builds = [
  // The extension host loads this; `vscode` is provided by the host.
  { ...common, entryPoints: { extension: 'client/src/extension.ts' }, outdir: 'dist', platform: 'node', format: 'cjs', target: 'node18', external: ['vscode'] },
  // `engram`: the CLI and, through `engram lsp`, the memory server. better-sqlite3's JS is bundled;
  // its native binding is loaded from dist/native by path.
  { ...common, entryPoints: { engram: 'server/src/engram.ts' }, outdir: 'dist', platform: 'node', format: 'cjs', target: 'node20' },
  { ...common, entryPoints: { stats: 'webview/src/stats/main.ts' }, outdir: 'dist/webview', platform: 'browser', format: 'iife', target: 'es2022' },
];

process.chdir(root);
mkdirSync('dist/webview', { recursive: true });
cpSync('webview/src/shared/webview.css', 'dist/webview/webview.css');
if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
  console.log('engram: watching for changes…');
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
  chmodSync('dist/engram.js', 0o755);
}
await stageBindings(path.join(root, 'dist', 'native'));
// tree-sitter's runtime and grammars, loaded by the server for symbol tagging.
await stageGrammars(path.join(root, 'dist', 'grammars'));
