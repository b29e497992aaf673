// Bundles the extension-host mocha suite (test/vscode/) into test-output/vscode-tests/, for
// @vscode/test-electron (`npm run test:desktop`) and for the code-server run in test/e2e.
import * as esbuild from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const VSCODE_TESTS_DIR = path.join(root, 'test-output', 'vscode-tests');

export async function buildVscodeTests() {
  await esbuild.build({
    entryPoints: { index: path.join(root, 'test/vscode/suite/index.ts'), 'extension.test': path.join(root, 'test/vscode/suite/extension.test.ts') },
    outdir: VSCODE_TESTS_DIR,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    // mocha loads test files itself, so it stays a real module resolved from the repo's node_modules.
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return path.join(VSCODE_TESTS_DIR, 'index.js');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await buildVscodeTests());
