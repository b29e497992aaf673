import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT } from '../support/engramProcess';
import { tempDir } from '../support/tempDirs';
import { openWorkbench, type Workbench } from './support/workbench';

const SUITE = path.join(REPO_ROOT, 'test', 'vscode', 'suite');

/** The mocha tests the suite's files declare (`it(` at the start of a line). */
function suiteTestCount(): number {
  return readdirSync(SUITE)
    .filter((f) => f.endsWith('.test.ts'))
    .reduce((n, f) => n + (readFileSync(path.join(SUITE, f), 'utf8').match(/^\s*it\(/gm)?.length ?? 0), 0);
}

// The mocha suite of test/vscode/ run inside code-server's extension host, against the real
// `vscode` API — what `npm run test:desktop` does with a downloaded desktop VS Code.
describe('the extension-host suite in code-server', { timeout: 240_000 }, () => {
  const work = tempDir('engram-exthost-');
  let server: { url: string; folderUrl: string; stop(): Promise<void> };
  let workbench: Workbench;

  before(async () => {
    const toolchain = await import(path.join(REPO_ROOT, 'scripts', 'lib', 'toolchain.mjs'));
    const codeServer = await import(path.join(REPO_ROOT, 'scripts', 'lib', 'codeServer.mjs'));
    const demo = await import(path.join(REPO_ROOT, 'scripts', 'lib', 'demo.mjs'));
    const { buildVscodeTests } = await import(path.join(REPO_ROOT, 'scripts', 'build-vscode-tests.mjs'));
    await toolchain.ensureCodeServer();
    const testsEntry: string = await buildVscodeTests();
    const prepared = demo.prepareDemo({ workspaceDir: path.join(work, 'shop'), engramHome: path.join(work, 'engram-home') });
    server = await codeServer.startCodeServer({ folder: prepared.workspaceDir, smokeTestDriver: true, env: { ENGRAM_HOME: prepared.engramHome } });
    const remote = (file: string) => `vscode-remote://${new URL(server.url).host}${file}`;
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', remote(REPO_ROOT)],
      ['extensionTestsPath', remote(testsEntry)],
    ]);
    workbench = await openWorkbench(`${server.folderUrl}&payload=${encodeURIComponent(payload)}`);
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
  });

  it('passes every test of the suite', async () => {
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      workbench.automationExit,
      new Promise<number>((_, reject) => (timer = setTimeout(() => reject(new Error('the extension-host suite did not finish in 180 s')), 180_000))),
    ]).finally(() => clearTimeout(timer));
    const output = workbench.consoleLines.join('\n');
    assert.equal(code, 0, output.slice(-6000));
    // Every test the suite declares ran and passed. The host's console forwards mocha's format
    // string and its arguments separately.
    const declared = suiteTestCount();
    assert.ok(declared > 0, 'the suite declares tests');
    assert.match(output, new RegExp(`%d passing \\(%s\\) ${declared} |\\b${declared} passing`));
    assert.doesNotMatch(output, /failing/);
  });
});
