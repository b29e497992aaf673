// Bundles the extension, the server + CLI, and the webview with esbuild, and stages the native
// SQLite binding of this machine next to the server bundles. `--watch` rebuilds on change; `--production` minifies.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stageBinding } from './lib/bindings.mjs';
import { stageGrammars } from './lib/grammars.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const dist = path.join(root, 'dist');
const cliDir = path.join(root, 'server', 'src', 'cli');

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  define: { 'process.env.ENGRAM_VERSION': JSON.stringify(version) },
};

/**
 * Engram's sources import zod as `import { z } from 'zod'`: one namespace object that esbuild must
 * keep whole (every schema type, every locale, JSON Schema conversion). Imported as
 * `import * as z from 'zod'` (zod's documented form, with the same members), esbuild keeps only
 * what is used: half of zod's code is left out of every bundle, and each command starts sooner.
 */
const zodTreeShaking = {
  name: 'zod-tree-shaking',
  setup(build) {
    build.onLoad({ filter: /[\\/]server[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes("import { z } from 'zod';")) return undefined;
      return { contents: text.replaceAll("import { z } from 'zod';", "import * as z from 'zod';"), loader: 'ts' };
    });
  },
};

// Server bundles: import() becomes require(), so a bundle loaded through vm.Script (for its code
// cache, server/src/cli/codeCache.ts) needs no dynamic-import callback.
const server = { ...common, platform: 'node', format: 'cjs', target: 'node22', supported: { 'dynamic-import': false }, plugins: [zodTreeShaking] };

const clientBuilds = [
  // The extension host loads this; `vscode` is provided by the host.
  { ...common, entryPoints: { extension: 'client/src/extension.ts' }, outdir: 'dist', platform: 'node', format: 'cjs', target: 'node18', external: ['vscode'] },
  { ...common, entryPoints: { stats: 'webview/src/stats/main.ts', sidebar: 'webview/src/sidebar/main.ts', timeline: 'webview/src/timeline/main.ts' }, outdir: 'dist/webview', platform: 'browser', format: 'iife', target: 'es2022' },
];

const commandModules = () => readdirSync(path.join(cliDir, 'commands')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).sort();

/** Every command module, and main.ts's COMMANDS: which commands exist, in which order, and where each is defined. */
function inventorySource() {
  const modules = commandModules();
  return [
    "export { COMMANDS } from './main';",
    ...modules.map((m, i) => `import * as m${i} from './commands/${m}';`),
    `export const modules = { ${modules.map((m, i) => `${JSON.stringify(m)}: m${i}`).join(', ')} };`,
  ].join('\n');
}

const inventoryOptions = () => ({ ...server, sourcemap: false, minify: false, write: false, outfile: path.join(dist, 'inventory.js'), stdin: { contents: inventorySource(), resolveDir: cliDir, loader: 'ts' } });

function evaluate(outputFile) {
  const module = { exports: {} };
  new Function('exports', 'require', 'module', '__filename', '__dirname', outputFile.text)(module.exports, createRequire(outputFile.path), module, outputFile.path, dist);
  return module.exports;
}

/** Which module under server/src/cli/commands defines each command of main.ts, in COMMANDS order. */
function commandsByModule(inventory) {
  const { COMMANDS, modules } = evaluate(inventory);
  return COMMANDS.map((command) => {
    const module = Object.keys(modules).find((m) => Object.values(modules[m]).includes(command));
    if (!module) throw new Error(`engram build: command "${command.name}" is not exported by a module in server/src/cli/commands`);
    return { name: command.name, summary: command.summary, usage: command.usage, module, jit: command.jit === true };
  });
}

/**
 * Virtual entry points `engram-command:<module>`: a command module plus the CLI's argument
 * handling; modules whose commands all parse one input and exit import cli/jitless.ts first.
 */
const commandEntries = (jitModules) => ({
  name: 'engram-command-entries',
  setup(build) {
    build.onResolve({ filter: /^engram-command:/ }, (args) => ({ path: args.path.slice('engram-command:'.length), namespace: 'engram-command' }));
    build.onLoad({ filter: /.*/, namespace: 'engram-command' }, (args) => ({
      contents: `${jitModules.has(args.path) ? '' : "import './jitless';\n"}export * from './commands/${args.path}';\nexport { runCommand } from './runCommand';\n`,
      resolveDir: cliDir,
      loader: 'ts',
    }));
  },
});

/**
 * `engram` is a small entry (server/src/engram.ts) that knows every command's help and loads the
 * bundle of the one it runs: one bundle per command module (dist/engram-<module>.js), so
 * `engram recall` never parses the language server, and the LSP server never parses the CLI.
 * Each bundle ends with its content hash, which the entry checks before using a code cache.
 */
async function buildServer(inventory) {
  const commands = commandsByModule(inventory);
  const modules = [...new Set(commands.map((c) => c.module))];
  const entryPoints = Object.fromEntries(modules.map((m) => [`engram-${m}`, `engram-command:${m}`]));
  const bundles = await esbuild.build({ ...server, entryPoints, outdir: 'dist', plugins: [...server.plugins, commandEntries(new Set(commands.filter((c) => c.jit).map((c) => c.module)))], write: false });
  const hashes = new Map();
  for (const output of bundles.outputFiles) {
    if (!output.path.endsWith('.js')) {
      writeAtomically(output.path, output.contents);
      continue;
    }
    const text = asciiOnly(output.text);
    const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
    writeAtomically(output.path, `${text}/* engram-bundle ${hash} */\n`);
    hashes.set(path.basename(output.path), hash);
  }
  const manifest = commands.map((c) => ({ name: c.name, summary: c.summary, usage: c.usage, bundle: `engram-${c.module}.js`, contentHash: hashes.get(`engram-${c.module}.js`) }));
  // `engram import`'s reader thread (server/src/cli/import/importReader.ts starts it).
  // The memory server's history import thread (server/src/history/historyThread.ts starts it).
  const workers = await esbuild.build({ ...server, entryPoints: { 'import-worker': 'server/src/cli/import/importWorker.ts', 'history-worker': 'server/src/history/historyWorker.ts', 'text-index-worker': 'server/src/store/textIndex/textIndexWorker.ts', 'opening-declarations-worker': 'server/src/symbols/openingDeclarationsWorker.ts' }, outdir: 'dist', write: false });
  for (const output of workers.outputFiles) writeAtomically(output.path, output.path.endsWith('.js') ? asciiOnly(output.text) : output.contents);
  const entry = await esbuild.build({ ...server, entryPoints: { engram: 'server/src/engram.ts' }, outdir: 'dist', write: false, define: { ...server.define, ENGRAM_COMMANDS: JSON.stringify(manifest) } });
  for (const output of entry.outputFiles) writeAtomically(output.path, output.path.endsWith('.js') ? asciiOnly(output.text) : output.contents, output.path.endsWith('.js') ? 0o755 : 0o644);
  // Bundles of modules that no longer have commands (renamed, removed) would only mislead.
  const current = new Set([...hashes.keys()].flatMap((f) => [f, `${f}.map`]));
  for (const file of readdirSync(dist)) if (/^engram-.*\.js(\.map)?$/.test(file) && !current.has(file)) rmSync(path.join(dist, file));
}

/**
 * A bundle in ASCII only. esbuild escapes non-ASCII characters in strings but leaves them in
 * regular expression literals (the redaction rules' `…`, `contraseña`): one such character makes
 * V8 keep the whole source as a two-byte string, 3 MB of the memory server's heap for its 1.5 MB
 * bundle, and every hook process pays the same. Each UTF-16 unit becomes `\uXXXX`, which means the
 * same character in a string, a regular expression (with or without the u flag) and an identifier;
 * an escaped one (`\é`) loses the backslash its escape no longer needs.
 */
function asciiOnly(text) {
  return text.replace(/(\\*)([^\x00-\x7f])/g, (_, slashes, unit) => `${slashes.slice(slashes.length % 2)}\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Replaces a file in one step: an `engram` starting meanwhile reads the old version or the new one, never half of one. */
function writeAtomically(file, contents, mode = 0o644) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents, { mode });
  renameSync(temporary, file);
}

process.chdir(root);
mkdirSync('dist/webview', { recursive: true });
cpSync('webview/src/shared/webview.css', 'dist/webview/webview.css');
if (watch) {
  for (const options of clientBuilds) await (await esbuild.context(options)).watch();
  // The inventory imports every command module, so any server change rebuilds it, and then the
  // bundles and the entry. A new file in server/src/cli/commands needs a restart of the watch.
  const rebuildServer = {
    name: 'engram-rebuild-server',
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length) return;
        try {
          await buildServer(result.outputFiles[0]);
        } catch (error) {
          console.error(`engram: server build failed: ${error.message}`);
        }
      });
    },
  };
  const options = inventoryOptions();
  await (await esbuild.context({ ...options, plugins: [...options.plugins, rebuildServer] })).watch();
  console.log('engram: watching for changes…');
} else {
  const [inventory] = await Promise.all([esbuild.build(inventoryOptions()), ...clientBuilds.map((options) => esbuild.build(options))]);
  await buildServer(inventory.outputFiles[0]);
}
stageBinding(path.join(root, 'dist', 'native'));
// tree-sitter's runtime and grammars, loaded by the server for symbol tagging.
await stageGrammars(path.join(root, 'dist', 'grammars'));
