// `npm test`: typecheck and lint (side by side: each keeps one core busy), build, then every
// test — unit, integration (real server process, real CLI, Node 22/24, and Node 20 refused) and
// end-to-end (the VSIX in a real VS Code) — in one node:test run, one file at a time because the
// e2e repackages dist/. The tests run on a Node that Engram runs on: this one if it is 22 or
// newer, else Node 24 from the npm registry.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './lib/chromium.mjs';
import { ensurePostgres } from './lib/postgres.mjs';
import { modernNode } from './lib/toolchain.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const kinds = process.argv.slice(2).length ? process.argv.slice(2) : ['unit', 'integration', 'e2e'];

// The walls between the parts (eslint.config.mjs, docs/architecture.md) are checked before any test runs.
const lint = spawn(process.execPath, [path.join(root, 'scripts', 'lint.mjs')], { cwd: root, stdio: 'inherit' });
const linted = new Promise((resolve) => lint.on('exit', (code) => resolve(code ?? 1)));

function step(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    lint.kill();
    process.exit(result.status ?? 1);
  }
}

step(process.execPath, [path.join(root, 'scripts', 'typecheck.mjs')]);
const lintCode = await linted;
if (lintCode !== 0) process.exit(lintCode);
step(process.execPath, [path.join(root, 'scripts', 'build.mjs')]);
const files = kinds.flatMap((kind) =>
  readdirSync(path.join(root, 'test', kind))
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => path.join('test', kind, f)),
);
if (kinds.includes('integration')) {
  try {
    ensurePostgres();
  } catch (error) {
    process.stderr.write(`engram: ${error.message}\n`);
    process.exit(1);
  }
}
if (kinds.includes('e2e')) {
  try {
    ensureChromium();
  } catch (error) {
    process.stderr.write(`engram: ${error.message}\n`);
    process.exit(1);
  }
}
step(await modernNode(), ['--import', 'tsx', '--test', '--test-concurrency=1', ...files]);
