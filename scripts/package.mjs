// `npm run package`: production bundles, then one VSIX per VS Code target, each with exactly the
// SQLite binding of its platform (no node_modules: everything else is bundled), and its size.
//   npm run package                          every target, as engram-<target>-<version>.vsix
//   npm run package -- --target linux-x64    one target
//   node scripts/package.mjs --out FILE      this machine's target, to FILE (the demo and e2e)
//   --out-dir DIR                            where the VSIXs and dist-plugin/ go (default: the repository)
//   --plugin-only                            only the Claude Code plugin and its marketplace (docs/plugin.md)
// Every run but --out also writes the Claude Code plugin, with the bindings of every platform, as a
// marketplace folder: <out-dir>/dist-plugin/ (.claude-plugin/marketplace.json, engram/).
import { createVSIX } from '@vscode/vsce';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hostBindingTarget, stageBinding } from './lib/bindings.mjs';
import { folderBytes, writePlugin } from './lib/plugin.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { name, version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/** VS Code's targets and better-sqlite3's prebuilt binding for each (Alpine is musl). */
const TARGETS = {
  'win32-x64': 'win32-x64',
  'win32-arm64': 'win32-arm64',
  'darwin-x64': 'darwin-x64',
  'darwin-arm64': 'darwin-arm64',
  'linux-x64': 'linux-x64',
  'linux-arm64': 'linux-arm64',
  'alpine-x64': 'linuxmusl-x64',
  'alpine-arm64': 'linuxmusl-arm64',
};

function hostTarget() {
  const binding = hostBindingTarget();
  return Object.keys(TARGETS).find((target) => TARGETS[target] === binding);
}

const { values } = parseArgs({ options: { target: { type: 'string', multiple: true }, out: { type: 'string' }, 'out-dir': { type: 'string' }, 'plugin-only': { type: 'boolean' } } });
const targets = values['plugin-only'] ? [] : (values.target ?? (values.out ? [hostTarget()] : Object.keys(TARGETS)));
for (const target of targets) {
  if (!(target in TARGETS)) {
    console.error(`engram package: unknown target "${target}"; targets: ${Object.keys(TARGETS).join(', ')}`);
    process.exit(2);
  }
}
if (values.out && targets.length !== 1) {
  console.error('engram package: --out takes one --target');
  process.exit(2);
}

execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--production'], { cwd: root, stdio: 'inherit' });

/**
 * A copy of what a VSIX may hold (.vscodeignore still decides), with the target's binding as its
 * only native file: dist/ itself keeps this machine's binding for the tests and the demo.
 */
function stage(target) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `engram-vsix-${target}-`));
  for (const file of ['package.json', 'README.md', 'LICENSE', '.vscodeignore']) cpSync(path.join(root, file), path.join(dir, file));
  cpSync(path.join(root, 'media'), path.join(dir, 'media'), { recursive: true });
  cpSync(path.join(root, 'dist'), path.join(dir, 'dist'), { recursive: true, filter: (source) => !source.endsWith('.map') && path.basename(source) !== 'native' });
  stageBinding(path.join(dir, 'dist', 'native'), TARGETS[target]);
  return dir;
}

for (const target of targets) {
  const out = path.resolve(values.out ?? path.join(values['out-dir'] ?? root, `${name}-${target}-${version}.vsix`));
  mkdirSync(path.dirname(out), { recursive: true });
  const dir = stage(target);
  // vsce prints every VSIX's file tree; one line per target is enough, warnings and errors still show.
  const log = console.log;
  console.log = () => {};
  try {
    await createVSIX({ cwd: dir, packagePath: out, target, dependencies: false, allowMissingRepository: true, rewriteRelativeLinks: false });
  } finally {
    console.log = log;
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`${path.relative(process.cwd(), out)}: ${target}, ${(statSync(out).size / 1024 / 1024).toFixed(2)} MiB`);
}

if (!values.out) {
  const outDir = path.resolve(values['out-dir'] ?? root, 'dist-plugin');
  const pluginDir = await writePlugin(outDir, [...new Set(Object.values(TARGETS))]);
  console.log(`${path.relative(process.cwd(), outDir) || '.'}: the Claude Code plugin marketplace; plugin ${path.relative(process.cwd(), pluginDir)}, ${(folderBytes(pluginDir) / 1024 / 1024).toFixed(2)} MiB`);
}
