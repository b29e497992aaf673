// `npm test`: typecheck and lint (side by side: each keeps one core busy), build, then every
// test: end-to-end (the VSIX in a real VS Code) one file at a time, because the e2e repackages
// dist/; then integration (real server process, real CLI, Node 22/24, and Node 20 refused) and
// unit tests, in one process. The tests run on a Node that Engram runs on: this one if it is 22
// or newer, else Node 24 from the npm registry.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './lib/chromium.mjs';
import { ensurePostgres } from './lib/postgres.mjs';
import { codeServerInstalled, modernNode } from './lib/toolchain.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const kinds = process.argv.slice(2).length ? process.argv.slice(2) : ['unit', 'integration', 'e2e'];

// code-server's install is ~3 minutes of one core, mostly unpacking and compiling: done beside
// the checks and the tests before the e2e ones, at a low priority so their timings stay theirs.
// The e2e suites' own ensureCodeServer waits for it (a lock) and reports its failure.
const codeServer =
  kinds.includes('e2e') && !codeServerInstalled()
    ? spawn(
        process.execPath,
        [
          '-e',
          `require('node:os').setPriority(15);
          import('./scripts/lib/toolchain.mjs').then((t) => t.ensureCodeServer()).catch((error) => {
            process.stderr.write('toolchain: installing code-server beside the tests failed (the e2e tests try again): ' + error.message.split('\\n')[0] + '\\n');
            process.exit(1);
          });`,
        ],
        // Its own process group, so that npm and the compilers under it stop with it.
        { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], detached: true },
      )
    : null;
codeServer?.unref();
process.on('exit', () => {
  try {
    if (codeServer && codeServer.exitCode === null) process.kill(-codeServer.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
});
// Ctrl-C reaches the foreground group only: exit through the handler above.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

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
const filesOf = (kind) =>
  readdirSync(path.join(root, 'test', kind))
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => path.join('test', kind, f));
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
const node = await modernNode();
const testRun = (files, options = []) => spawnSync(node, ['--import', 'tsx', '--test', '--test-concurrency=1', ...options, ...files], { cwd: root, stdio: 'inherit' }).status ?? 1;
const outcomes = [];
// The e2e files a process each: they repackage dist/ and drive VS Code.
if (kinds.includes('e2e')) outcomes.push(testRun(filesOf('e2e')));
// The unit and integration files in one process: each starts its servers as child processes and
// passes them their environment, so they share nothing but the modules they load, which a
// process per file loaded again for every file. An older Node lacks the option.
const inOneProcess = spawnSync(node, ['--test-isolation=none', '-e', '0']).status === 0 ? ['--test-isolation=none'] : [];
const inProcess = kinds.filter((kind) => kind !== 'e2e').flatMap(filesOf);
if (inProcess.length) outcomes.push(testRun(inProcess, inOneProcess));
process.exit(outcomes.find((code) => code !== 0) ?? 0);
