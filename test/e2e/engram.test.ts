import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runEngram } from '../support/engramProcess';
import { eventually as waitFor } from '../support/eventually';
import { tempDir } from '../support/tempDirs';
import { startDemoVsCode, type CodeServer } from './support/demoVsCode';
import { clickCodeLens, codeLensTexts, goToLine, hoverOnLine, openFile, openWorkbench, runCommand, screenshot, selectLines, statusBarText, webviewFrameText, type Workbench } from './support/workbench';

const STATS = { title: 'Engram: Memory Stats' };

function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  return waitFor(what, probe, { timeoutMs, intervalMs: 250 });
}

/**
 * Changes a machine-scoped setting the way a user editing it would; VS Code picks it up live. In a
 * remote window (code-server), machine settings live in Machine/settings.json, not User/.
 */
function setMachineSetting(server: CodeServer, key: string, value: unknown): void {
  const file = path.join(server.userDataDir, 'Machine', 'settings.json');
  mkdirSync(path.dirname(file), { recursive: true });
  const settings = (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...settings, [key]: value }, null, 2));
}

/** What the extension and its memory server wrote to the "Engram" output channel (a log file of VS Code's). */
function engramLog(server: CodeServer): string {
  const logs = path.join(server.userDataDir, 'logs');
  if (!existsSync(logs)) return '';
  const files = readdirSync(logs, { recursive: true, encoding: 'utf8' }).filter((f) => path.basename(f) === 'Engram.log');
  return files.map((f) => readFileSync(path.join(logs, f), 'utf8')).join('\n');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// The packaged VSIX installed into a real VS Code (code-server), driven through Chromium.
describe('Engram in a real VS Code', { timeout: 300_000 }, () => {
  const work = tempDir('engram-e2e-');
  let server: CodeServer;
  let workbench: Workbench;
  let seededIds: string[];
  let demoDir: string;
  let engramHome: string;

  async function diffMemoriesOf(file: string): Promise<{ title: string; source: string; symbols: string[] }[]> {
    const result = await runEngram(['recall', '--file', file, '--json', '--limit', '50'], { env: { ...process.env, ENGRAM_HOME: engramHome }, cwd: demoDir });
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout).results.filter((m: { kind: string }) => m.kind === 'diff');
  }

  before(async () => {
    ({ server, demoDir, engramHome, seededIds } = await startDemoVsCode(work));
    workbench = await openWorkbench(server.folderUrl);
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
  });

  it('activates from the VSIX and shows the memory count in the status bar', async () => {
    const text = await eventually('the Engram status item to show 5 memories', async () => {
      const status = await statusBarText(workbench.page, 'engram');
      return /Engram 5\b/.test(status) ? status : undefined;
    });
    assert.match(text, /Engram 5/);
  });

  it('runs its helper processes from the VSIX: the in-memory text index is built in a process of its own', async () => {
    // Each helper is a bundle of its own in dist/ (a VSIX once left one out, and recall fell back to SQLite's search).
    const log = await eventually('the server to say it indexed the text in memory', async () => {
      const text = engramLog(server);
      return /Indexed the text of 5 memories in memory/.test(text) ? text : undefined;
    });
    assert.doesNotMatch(log, /failed|Cannot find module/);
  });

  it('shows the seeded constraint on hover over the code it governs', async () => {
    await openFile(workbench.page, 'src/db.ts');
    const hover = await hoverOnLine(workbench.page, 7, 'acquire', { expect: /never concatenate user input/ });
    assert.match(hover, /Engram · hard-pinned constraint/);
    assert.match(hover, /All SQL goes through query\(\) with bound parameters/);
    assert.match(hover, /pentest found SQL injection/);
    await screenshot(workbench.page, 'hover-constraint');
  });

  it('shows CodeLenses at the top of the file and above the pinned code', async () => {
    const lenses = await eventually('Engram CodeLenses', async () => {
      const texts = await codeLensTexts(workbench.page);
      return texts.some((t) => t.startsWith('Engram:')) ? texts : undefined;
    });
    assert.ok(lenses.includes('Engram: 1 constraint'), JSON.stringify(lenses));
    assert.ok(lenses.some((l) => l.includes('hard constraint: All SQL goes through query()')), JSON.stringify(lenses));
    await screenshot(workbench.page, 'codelens');
  });

  it('opens the memory panel, never shown before, at the memories a CodeLens names', async () => {
    await clickCodeLens(workbench.page, /^Engram:\s+1\s+constraint$/);
    const text = await eventually('the panel to show the lens\'s memories', async () => {
      const body = await webviewFrameText(workbench.page, { selector: '#engram-sidebar' }, { timeoutMs: 2000 }).catch(() => '');
      return /Showing 1 memory from the CodeLens at the top of the file/.test(body) && /All SQL goes through query\(\)/.test(body) ? body : undefined;
    });
    assert.match(text, /Show all for this file/);
    assert.doesNotMatch(text, /Relevant memories/i);
  });

  it('runs "Engram: Show Memory Stats" from the command palette', async () => {
    await runCommand(workbench.page, 'Engram: Show Memory Stats');
    const text = await eventually('the stats webview', async () => {
      const body = await webviewFrameText(workbench.page, STATS, { timeoutMs: 2000 });
      return /Active memories\s+5/.test(body) ? body : undefined;
    });
    assert.match(text, /Hard pins\s+1/);
    assert.match(text, /Soft pins\s+1/);
    assert.match(text, /Memory server: Node v\d+/);
    await screenshot(workbench.page, 'memory-stats');
  });

  it('restarts a memory server that was killed, and the status bar says so', async () => {
    const text = await webviewFrameText(workbench.page, STATS);
    const pid = Number(/pid (\d+)/.exec(text)?.[1]);
    assert.ok(pid > 0 && alive(pid), `memory server pid from the stats view: ${pid}`);
    // Started as memoryServerFlags.ts says: Node's flags before the script, glibc's malloc thresholds in its environment.
    assert.match(readFileSync(`/proc/${pid}/cmdline`, 'utf8'), /--heap-growing-percent=40\0.*engram\.js\0lsp/);
    assert.ok(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').some((e) => /^GLIBC_TUNABLES=.*glibc\.malloc\.mmap_threshold=65536/.test(e)), 'GLIBC_TUNABLES');
    process.kill(pid, 'SIGKILL');
    await eventually('the status bar to be back at 5 memories after the restart', async () => {
      const status = await statusBarText(workbench.page, 'engram');
      return /Engram 5\b/.test(status) && !/restarting/.test(status) ? status : undefined;
    });
    await runCommand(workbench.page, 'Engram: Show Memory Stats');
    const after = await eventually('a new server pid', async () => {
      const body = await webviewFrameText(workbench.page, STATS, { timeoutMs: 2000 });
      const next = Number(/pid (\d+)/.exec(body)?.[1]);
      return next && next !== pid ? next : undefined;
    });
    assert.ok(alive(after));
    assert.equal(seededIds.length, 5);
  });

  it('says clearly when no usable Node.js can run the server, and recovers as soon as the path is fixed', async () => {
    setMachineSetting(server, 'engram.nodePath', '/nonexistent/node');
    const toast = workbench.page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'Engram cannot start its memory server' });
    await toast.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await toast.innerText(), /The engram\.nodePath setting \(\/nonexistent\/node\) cannot run Engram/);
    assert.equal(await toast.getByRole('button', { name: 'Set Node Path' }).count(), 1);
    const failed = await eventually('the status item to drop its count', async () => {
      const status = await statusBarText(workbench.page, 'engram');
      return status && !/\d/.test(status) ? status : undefined;
    });
    assert.match(failed, /Engram/);
    const panel = await eventually('the stats view to say why', async () => {
      const body = await webviewFrameText(workbench.page, STATS, { timeoutMs: 2000 });
      return /not available/.test(body) ? body : undefined;
    });
    assert.match(panel, /The memory server is not available: .*\/nonexistent\/node/);
    await screenshot(workbench.page, 'no-usable-node');

    setMachineSetting(server, 'engram.nodePath', '');
    await eventually('the server to run again', async () => (/Engram 5\b/.test(await statusBarText(workbench.page, 'engram')) ? true : undefined));
  });

  it('records an edit saved in the editor as a diff memory tagged with its function', async () => {
    await openFile(workbench.page, 'src/db.ts');
    const page = workbench.page;
    await goToLine(page, 17);
    await page.keyboard.press('End');
    await page.keyboard.type(' // the first row, or null');
    await page.keyboard.press('Control+S');
    const memory = await eventually('a diff memory for src/db.ts', async () => (await diffMemoriesOf('src/db.ts'))[0]);
    assert.equal(memory.source, 'editor');
    assert.deepEqual(memory.symbols, ['findCustomer']);
    assert.equal(memory.title, 'Edited findCustomer (+1 \u22121) in src/db.ts');
    await screenshot(page, 'edit-saved');
  });

  it('records a change made on disk by another program while the editor is open', async () => {
    const file = path.join(demoDir, 'api', 'orders.py');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Decimal("0"))', 'Decimal("0.00"))'));
    const memory = await eventually('a diff memory for api/orders.py', async () => (await diffMemoriesOf('api/orders.py'))[0]);
    assert.equal(memory.source, 'disk');
    assert.deepEqual(memory.symbols, ['OrderService.total']);
  });

  it('pins a selection as a constraint: hover and CodeLens show it, it follows lines inserted above, and goes stale when deleted', async () => {
    const page = workbench.page;
    await openFile(page, 'src/pool.ts');
    await selectLines(page, 14, 3);
    await runCommand(page, 'Engram: Pin Selection as Constraint', { waitForClose: false });
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill('release() must never grow the pool past options.max');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'This code' }).first().waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'Hard' }).first().waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');

    const hover = await hoverOnLine(page, 15, 'idle', { expect: /never grow the pool/ });
    assert.match(hover, /Engram · hard-pinned constraint/);
    assert.match(hover, /Unpin/);
    // VS Code may show the new pin lens a moment before it updates the file's top lens: wait for both.
    const lenses = await eventually('the pin CodeLens and the updated top lens', async () => {
      const texts = await codeLensTexts(page);
      return texts.some((t) => t.includes('hard constraint: release() must never grow')) && texts.some((l) => /^Engram: 1 constraint/.test(l)) ? texts : undefined;
    });
    assert.ok(lenses.some((l) => /^Engram: 1 constraint/.test(l)), JSON.stringify(lenses));
    await screenshot(page, 'pin-selection-hover');

    await goToLine(page, 1);
    await page.keyboard.type('// added above, line one');
    await page.keyboard.press('Enter');
    await page.keyboard.type('// added above, line two');
    await page.keyboard.press('Enter');
    const moved = await hoverOnLine(page, 17, 'idle', { expect: /never grow the pool/ });
    assert.match(moved, /release\(\) must never grow the pool/);

    await selectLines(page, 16, 3);
    await page.keyboard.press('Delete');
    const stale = await eventually('a stale CodeLens', async () => (await codeLensTexts(page)).find((t) => t.includes('stale constraint')));
    assert.match(stale, /stale constraint \(its code is gone\): release\(\) must never grow the pool/);
    await page.keyboard.press('Control+S');
    const stored = await eventually('the stale anchor saved', async () => {
      const result = await runEngram(['recall', '--file', 'src/pool.ts', '--json', '--limit', '50'], { env: { ...process.env, ENGRAM_HOME: engramHome }, cwd: demoDir });
      const pin = (JSON.parse(result.stdout).results as { title: string; anchor: { stale: boolean } | null }[]).find((m) => m.title.startsWith('release() must never'));
      return pin?.anchor?.stale ? pin : undefined;
    });
    assert.equal(stored.anchor!.stale, true);
    await screenshot(page, 'pin-selection-stale');
  });

  it('pins a selection for the team: the rule goes into .engram/memories.jsonl, and hover marks it as the team\'s', async () => {
    const page = workbench.page;
    const teamFile = path.join(demoDir, '.engram', 'memories.jsonl');
    assert.equal(existsSync(teamFile), false, 'nothing is written into the repository before a share');
    await openFile(page, 'cmd/inventory/main.go');
    await selectLines(page, 11, 5);
    await runCommand(page, 'Engram: Pin Selection as Constraint', { waitForClose: false });
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill('restock() returns a copy and never changes the items it is given');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'This code' }).first().waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'Hard, for the team' }).first().click();

    const line = await eventually('the rule in the team file', async () => (existsSync(teamFile) ? readFileSync(teamFile, 'utf8').split('\n').find((l) => l.includes('restock() returns a copy')) : undefined));
    assert.match(line, /"path":"cmd\/inventory\/main.go"/);
    const hover = await hoverOnLine(page, 13, 'item', { expect: /returns a copy/ });
    assert.match(hover, /Engram · hard-pinned constraint · team/);
  });

  it('leaves no memory server behind when VS Code stops', async () => {
    await runCommand(workbench.page, 'Engram: Show Memory Stats');
    const pid = await eventually('a live memory server pid in the stats view', async () => {
      const shown = Number(/pid (\d+)/.exec(await webviewFrameText(workbench.page, STATS))?.[1]);
      return shown && alive(shown) ? shown : undefined;
    });
    await workbench.close();
    await server.stop();
    await eventually('the memory server to exit', async () => (alive(pid) ? undefined : true), 10_000);
  });
});
