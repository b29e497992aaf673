// Builds better-sqlite3's native binding once per Node ABI we ship (20, 22, 24), because the
// server may run on any of them (see docs/runtime.md). Results are cached by version and ABI.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR, NODE_VERSIONS, ensureNode, nodeDir } from './lib/toolchain.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const sqlitePkgDir = path.dirname(require.resolve('better-sqlite3/package.json'));
const sqliteVersion = JSON.parse(readFileSync(path.join(sqlitePkgDir, 'package.json'), 'utf8')).version;
const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js');

/** Path of the cached binding for one Node major, building it if needed. */
export async function ensureBinding(major) {
  const nodeBin = await ensureNode(major);
  const abi = execFileSync(nodeBin, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).trim();
  const cached = path.join(CACHE_DIR, 'bindings', `better-sqlite3-${sqliteVersion}-abi${abi}.node`);
  if (existsSync(cached)) return { abi, file: cached };
  mkdirSync(path.dirname(cached), { recursive: true });
  // npm already compiled one for the Node running this script; reuse it when the ABI matches.
  const npmBuilt = path.join(sqlitePkgDir, 'build', 'Release', 'better_sqlite3.node');
  if (abi === process.versions.modules && existsSync(npmBuilt)) {
    copyFileSync(npmBuilt, cached);
    return { abi, file: cached };
  }
  const work = path.join(CACHE_DIR, 'bindings-build', `abi${abi}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  for (const part of ['binding.gyp', 'src', 'deps']) cpSync(path.join(sqlitePkgDir, part), path.join(work, part), { recursive: true });
  process.stderr.write(`engram: building better-sqlite3 ${sqliteVersion} for Node ${NODE_VERSIONS[major]} (ABI ${abi})…\n`);
  try {
    // Compiler chatter goes to a log; it is shown only when the build fails.
    execFileSync(nodeBin, [nodeGyp, 'rebuild', '--release', `--nodedir=${nodeDir(major)}`, `--jobs=${availableParallelism()}`], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, npm_config_nodedir: nodeDir(major) },
    });
  } catch (error) {
    process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`.slice(-20_000));
    throw new Error(`building better-sqlite3 for Node ${NODE_VERSIONS[major]} failed (see above)`);
  }
  copyFileSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'), cached);
  rmSync(work, { recursive: true, force: true });
  return { abi, file: cached };
}

/** Copies every shipped binding to dist/native/, where the server looks for them. */
export async function stageBindings(outDir = path.join(root, 'dist', 'native')) {
  mkdirSync(outDir, { recursive: true });
  const staged = [];
  for (const major of Object.keys(NODE_VERSIONS)) {
    const { abi, file } = await ensureBinding(Number(major));
    const target = path.join(outDir, `better_sqlite3-abi${abi}.node`);
    // Copied beside it, then renamed over it: a process that has the old file loaded (a server,
    // a test) keeps its mapping; writing into that file in place would crash it (SIGSEGV/SIGBUS).
    const temporary = `${target}.${process.pid}.tmp`;
    copyFileSync(file, temporary);
    renameSync(temporary, target);
    staged.push(target);
  }
  return staged;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const staged = await stageBindings();
  for (const file of staged) console.log(path.relative(root, file));
}
