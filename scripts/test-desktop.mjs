// `npm run test:desktop`: the extension-host suite in a desktop VS Code that @vscode/test-electron
// downloads (so it needs the internet; CI runs the same suite in code-server instead, see
// test/e2e/extensionHost.test.ts). Data and profile folders are temporary.
import { runTests } from '@vscode/test-electron';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildVscodeTests } from './build-vscode-tests.mjs';
import { prepareDemo } from './lib/demo.mjs';
import { modernNode } from './lib/toolchain.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
const work = mkdtempSync(path.join(os.tmpdir(), 'engram-desktop-'));
const { workspaceDir, engramHome } = prepareDemo({ workspaceDir: path.join(work, 'shop'), engramHome: path.join(work, 'engram-home'), node: await modernNode() });
await runTests({
  extensionDevelopmentPath: root,
  extensionTestsPath: await buildVscodeTests(),
  launchArgs: [workspaceDir, '--disable-extensions', `--user-data-dir=${path.join(work, 'user-data')}`, `--extensions-dir=${path.join(work, 'extensions')}`],
  extensionTestsEnv: { ENGRAM_HOME: engramHome },
});
