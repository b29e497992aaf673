// better-sqlite3 ≥ 13 is Node-API and its npm package carries a prebuilt binding per platform
// (prebuilds/<target>.node): nothing is compiled. The build stages the one for this machine; a
// VSIX carries exactly the one for its target (scripts/package.mjs).
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const packageDir = path.dirname(require.resolve('better-sqlite3/package.json'));

/** better-sqlite3's name for this machine's binding (linux-x64, linuxmusl-arm64, win32-x64, …), by its own rule. */
export function hostBindingTarget() {
  // Its package exports hide lib/, so it is required by path.
  const prebuild = require(path.join(packageDir, 'lib', 'binding.js')).getPrebuildPath();
  if (!prebuild) throw new Error(`better-sqlite3 has no prebuilt binding for ${process.platform}-${process.arch}`);
  return path.basename(prebuild, '.node');
}

export function bindingFile(target) {
  const file = path.join(packageDir, 'prebuilds', `${target}.node`);
  if (!existsSync(file)) throw new Error(`better-sqlite3 has no prebuilt binding ${file}`);
  return file;
}

/** Makes outDir hold exactly the binding of `target`, as `<target>.node`. */
export function stageBinding(outDir, target = hostBindingTarget()) {
  mkdirSync(outDir, { recursive: true });
  const name = `${target}.node`;
  const destination = path.join(outDir, name);
  // Copied beside it, then renamed over it: a process that has the old file loaded (a server,
  // a test) keeps its mapping; writing into that file in place would crash it (SIGSEGV/SIGBUS).
  const temporary = `${destination}.${process.pid}.tmp`;
  copyFileSync(bindingFile(target), temporary);
  renameSync(temporary, destination);
  for (const file of readdirSync(outDir)) if (file !== name) rmSync(path.join(outDir, file), { force: true });
  return destination;
}
