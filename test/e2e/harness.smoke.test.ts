// Proves the e2e harness itself (code-server + Chromium + the workbench helpers) without Engram,
// so a failing Engram e2e test can be told apart from a broken harness.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hoverOnLine, openFile, openWorkbench, runCommand, screenshot, statusBarText, type Workbench } from './support/workbench';

test('code-server workbench: open a file, TypeScript hover, command palette, screenshot', { timeout: 240_000 }, async (t) => {
  let last = Date.now();
  const lap = (what: string) => {
    t.diagnostic(`${what}: ${Date.now() - last} ms`);
    last = Date.now();
  };
  // Dynamic import: this file is CommonJS for TypeScript, the launcher is an ES module.
  const { startCodeServer, processGroupAlive } = await import('../../scripts/lib/codeServer.mjs');
  const workspace = mkdtempSync(join(tmpdir(), 'engram-smoke-ws-'));
  writeFileSync(join(workspace, 'hello.ts'), "export function greet(name: string) { return 'hi ' + name; }\n");

  const server = await startCodeServer({ folder: workspace });
  lap('start code-server');
  let workbench: Workbench | undefined;
  try {
    workbench = await openWorkbench(server.folderUrl);
    const { page } = workbench;
    lap('workbench up');

    await openFile(page, 'hello.ts');
    lap('open hello.ts');
    const hover = await hoverOnLine(page, 1, 'greet', { expect: /function greet/ });
    assert.match(hover, /function greet\(name: string\): string/);
    lap('TypeScript hover');

    const minimap = page.locator('.editor-group-container.active .monaco-editor .minimap');
    await minimap.waitFor({ state: 'visible' });
    await runCommand(page, 'View: Toggle Minimap');
    await minimap.waitFor({ state: 'hidden' });
    lap('palette command');

    // The language status item of the TypeScript extension shows for a .ts editor.
    assert.match(await statusBarText(page), /TypeScript/);
    await screenshot(page, 'harness-smoke');
  } catch (error) {
    const consoleTail = workbench ? workbench.consoleLines.slice(-30).join('\n') : '';
    const serverTail = readFileSync(server.logFile, 'utf8').split('\n').slice(-30).join('\n');
    throw new Error(
      `${(error as Error).message}\n--- browser console (last 30 lines) ---\n${consoleTail}\n--- code-server log (last 30 lines) ---\n${serverTail}`,
      { cause: error },
    );
  } finally {
    await workbench?.close();
    await server.stop();
    lap('close and stop');
    rmSync(workspace, { recursive: true, force: true });
  }
  assert.equal(processGroupAlive(server.pid), false, 'code-server left processes behind');
});
