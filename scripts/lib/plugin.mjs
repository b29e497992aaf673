// Engram's Claude Code plugin, and a marketplace folder that lists it (docs/plugin.md):
//   <outDir>/.claude-plugin/marketplace.json
//   <outDir>/engram/.claude-plugin/plugin.json, hooks/hooks.json, .mcp.json, commands/, bin/engram,
//                   dist/ (the bundled CLI, grammars, one SQLite binding per platform)
// The text files come from server/src/claude/pluginFiles.ts, bundled and evaluated here, so the
// hooks are the connector's own definition, never a copy.
import * as esbuild from 'esbuild';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bindingFile } from './bindings.mjs';

const root = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));

/** The marketplace's name: `claude plugin install engram@engram`. */
export const MARKETPLACE = 'engram';

/** pluginFiles.ts as a module of this process. */
async function loadPluginFiles() {
  const result = await esbuild.build({ entryPoints: [path.join(root, 'server', 'src', 'claude', 'pluginFiles.ts')], bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'warning' });
  const module = { exports: {} };
  const file = path.join(root, 'server', 'src', 'claude', 'pluginFiles.js');
  new Function('exports', 'require', 'module', '__filename', '__dirname', result.outputFiles[0].text)(module.exports, createRequire(file), module, file, path.dirname(file));
  return module.exports;
}

/** What of dist/ the CLI needs: no extension host bundle, no webview, no source maps, no native/ (staged per platform). */
function distFilter(source) {
  const relative = path.relative(path.join(root, 'dist'), source);
  if (relative === '') return true;
  const first = relative.split(path.sep)[0];
  return !relative.endsWith('.map') && !['extension.js', 'webview', 'native'].includes(first);
}

/**
 * Writes the marketplace folder `outDir` (replacing it) from an already built dist/; `bindings`
 * are better-sqlite3's target names. Returns the plugin folder.
 */
export async function writePlugin(outDir, bindings) {
  const { name, version, description, license } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const { pluginFiles, marketplaceManifest } = await loadPluginFiles();
  const build = { version, description, license, marketplace: MARKETPLACE };
  rmSync(outDir, { recursive: true, force: true });
  const pluginDir = path.join(outDir, name);
  for (const file of pluginFiles(build)) {
    const target = path.join(pluginDir, file.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.text);
    if (file.executable) chmodSync(target, 0o755);
  }
  mkdirSync(path.join(outDir, '.claude-plugin'), { recursive: true });
  writeFileSync(path.join(outDir, '.claude-plugin', 'marketplace.json'), `${JSON.stringify(marketplaceManifest(build), null, 2)}\n`);
  cpSync(path.join(root, 'LICENSE'), path.join(pluginDir, 'LICENSE'));
  cpSync(path.join(root, 'dist'), path.join(pluginDir, 'dist'), { recursive: true, filter: distFilter });
  const native = path.join(pluginDir, 'dist', 'native');
  mkdirSync(native, { recursive: true });
  for (const binding of bindings) cpSync(bindingFile(binding), path.join(native, `${binding}.node`));
  return pluginDir;
}

/** Total size of a folder, in bytes. */
export function folderBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += readFileSync(path.join(entry.parentPath, entry.name)).length;
  }
  return total;
}
