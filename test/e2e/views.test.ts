// Issue "Memory UI", done-when: in a real VS Code (code-server + Chromium) with the packaged VSIX,
// the sidebar panel and the timeline show the demo's seeded constraint, a diff memory made by an
// edit during the test and a search result; pinning and forgetting from the panel shows in the
// timeline and in hover; screenshots of both in light and dark themes.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { openProject } from '../../server/src/project';
import { REPO_ROOT, runEngram } from '../support/engramProcess';
import { eventually as waitFor } from '../support/eventually';
import { isolatedEnv, tempDir } from '../support/tempDirs';
import { startDemoVsCode, type CodeServer } from './support/demoVsCode';
import { clickCodeLens, goToLine, hoverOnLine, openFile, openWorkbench, runCommand, screenshot, type Workbench } from './support/workbench';

const CONSTRAINT = 'All SQL goes through query() with bound parameters';
const EDIT_TITLE = 'Edited findCustomer (+1 \u22121) in src/db.ts';
const SIDEBAR = '#engram-sidebar';
const TIMELINE = '#engram-timeline';
/** The machine running this may be busy with other suites: waits are generous. */
const UI_MS = 45_000;
/** The screenshots the README shows (docs/screenshots/). */
const README_SCREENSHOTS = ['memory-panel-dark', 'memory-panel-light', 'memory-timeline-light', 'memory-timeline-dark'];

function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = UI_MS): Promise<T> {
  return waitFor(what, probe, { timeoutMs, intervalMs: 300 });
}

/** The webview frame whose document has `selector` (the sidebar's or the timeline's root). */
async function webviewFrame(page: Page, selector: string, timeoutMs = UI_MS): Promise<Frame> {
  return eventually(`a webview with ${selector}`, async () => {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      if (await frame.locator(selector).count().catch(() => 0)) return frame;
    }
    return undefined;
  }, timeoutMs);
}

/** Waits until the webview's root text matches (and, with `lacks`, no longer contains that text). */
async function viewText(page: Page, selector: string, expect: RegExp, lacks?: string): Promise<string> {
  return eventually(`${selector} to show ${expect}${lacks ? ` without "${lacks}"` : ''}`, async () => {
    const frame = await webviewFrame(page, selector, 5000).catch(() => undefined);
    const text = (await frame?.locator(selector).innerText().catch(() => '')) ?? '';
    return expect.test(text) && (!lacks || !text.includes(lacks)) ? text : undefined;
  });
}

/** The card of a memory in the sidebar, by (part of) its title. */
async function sidebarCard(page: Page, title: string) {
  const frame = await webviewFrame(page, SIDEBAR);
  return frame.locator('article.memory-card').filter({ has: frame.locator('h3.title', { hasText: title }) }).first();
}

/** Hovers over `token` on a line and returns the hover's text ('' when there is none), failing if it contains `unwanted`. */
async function hoverWithout(page: Page, line: number, token: string, unwanted: string): Promise<string> {
  try {
    return await hoverOnLine(page, line, token, { timeoutMs: 8000, expect: new RegExp(`^(?![\\s\\S]*${unwanted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})[\\s\\S]+$`) });
  } catch (error) {
    const message = (error as Error).message;
    if (message.includes(unwanted)) throw error;
    return '';
  }
}

/** Picks a color theme the way a user does (Preferences: Color Theme), then waits for the workbench and both webviews to use it. */
async function useTheme(page: Page, theme: 'Dark Modern' | 'Light Modern'): Promise<void> {
  await runCommand(page, 'Preferences: Color Theme', { waitForClose: false });
  const picker = page.locator('.quick-input-widget');
  await picker.locator('.quick-input-box input').fill(theme);
  await picker.locator('.monaco-list-row').filter({ has: page.locator('.label-name').getByText(theme, { exact: true }) }).first().click({ timeout: UI_MS });
  await picker.waitFor({ state: 'hidden', timeout: UI_MS });
  const workbenchClass = theme === 'Light Modern' ? 'vs' : 'vs-dark';
  await page.locator(`.monaco-workbench.${workbenchClass}`).first().waitFor({ state: 'attached', timeout: UI_MS });
  const bodyClass = theme === 'Light Modern' ? 'vscode-light' : 'vscode-dark';
  for (const selector of [SIDEBAR, TIMELINE]) {
    await eventually(`${selector} in ${theme}`, async () => {
      const frame = await webviewFrame(page, selector, 5000).catch(() => undefined);
      return (await frame?.locator(`body.${bodyClass}`).count()) ? true : undefined;
    });
  }
}

async function showSidebar(page: Page): Promise<Frame> {
  await runCommand(page, 'Engram: Focus on Memory View');
  return webviewFrame(page, SIDEBAR);
}

/** Opens (or reveals) the timeline; the first time, moves it beside the editor so both stay visible. */
async function showTimeline(page: Page): Promise<Frame> {
  const opened = await page.locator('.tabs-container .tab').filter({ hasText: 'Engram: Memory Timeline' }).count();
  await runCommand(page, 'Engram: Open Memory Timeline');
  const frame = await webviewFrame(page, TIMELINE);
  if (!opened) {
    await runCommand(page, 'View: Move Editor into Right Group');
    return webviewFrame(page, TIMELINE);
  }
  return frame;
}

describe('the Engram memory panel and timeline in a real VS Code', { timeout: 600_000 }, () => {
  const work = tempDir('engram-e2e-views-');
  let server: CodeServer;
  let workbench: Workbench;
  let demoDir: string;
  let engramHome: string;
  let seededIds: string[];

  before(async () => {
    ({ server, demoDir, engramHome, seededIds } = await startDemoVsCode(work, { 'workbench.colorTheme': 'Dark Modern' }));
    workbench = await openWorkbench(server.folderUrl, { timeoutMs: 60_000 });
  });

  // What the window looked like at the end of each test: the first place to look when one fails.
  let step = 0;
  afterEach(async () => {
    if (workbench) await screenshot(workbench.page, `views-step-${++step}`).catch(() => undefined);
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
  });

  it('shows the constraint that governs the cursor in the sidebar, with its place and actions', async () => {
    const page = workbench.page;
    await openFile(page, 'src/db.ts');
    await goToLine(page, 7);
    await showSidebar(page);
    const text = await viewText(page, SIDEBAR, new RegExp(`${CONSTRAINT.replace(/[()]/g, '\\$&')}[\\s\\S]*at cursor`));
    assert.match(text, /src\/db\.ts/);
    assert.match(text, /Constraints that apply here/i);
    assert.match(text, /hard pin/);
    assert.match(text, /Why: A 2025 pentest found SQL injection/);
    assert.match(text, /src\/db\.ts, lines 5–13/);
    const card = await sidebarCard(page, CONSTRAINT);
    for (const action of ['Unpin', 'Edit', 'Copy as context', 'Forget']) assert.equal(await card.getByText(action, { exact: true }).count(), 1, action);
  });

  it("answers `engram recall` through the window's mailbox in the runtime directory", async () => {
    const runtime = path.join(server.tempDir, 'xdg-runtime', 'engram');
    const mailbox = await waitFor('the window\'s mailbox', async () => {
      const names = existsSync(runtime) ? readdirSync(runtime) : [];
      return names.length === 1 && existsSync(path.join(runtime, names[0]!, 'server.pid')) ? path.join(runtime, names[0]!) : undefined;
    });
    // A caller with an empty data folder of its own: only the window's server knows the demo's memories.
    const run = await runEngram(['recall', '--file', 'src/db.ts', '--query', 'bound parameters', '--json'], { env: { ...isolatedEnv(), ENGRAM_MAILBOX: mailbox }, cwd: demoDir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /bound parameters/);
  });

  it('records an edit saved during the test as a diff memory: the panel shows it and opens it in the diff editor', async () => {
    const page = workbench.page;
    // Focus the editor on a rendered line: the CodeLens widgets between lines would take a click.
    await goToLine(page, 17);
    await page.keyboard.press('End');
    await page.keyboard.type(' // the first row, or null');
    await page.keyboard.press('Control+S');
    await viewText(page, SIDEBAR, new RegExp(EDIT_TITLE.replace(/[()+]/g, '\\$&')));
    const card = await sidebarCard(page, EDIT_TITLE);
    await card.getByText('Open diff', { exact: true }).click();
    const tab = page.locator('.tabs-container .tab').filter({ hasText: 'db.ts: Edited findCustomer' });
    await tab.first().waitFor({ state: 'visible', timeout: UI_MS });
    const diffEditor = page.locator('.monaco-diff-editor').first();
    // Monaco renders spaces as U+00A0.
    await eventually('the diff editor to show the added comment', async () => ((await diffEditor.innerText().catch(() => '')).replace(/\u00a0/g, ' ').includes('the first row, or null') ? true : undefined));
    await page.locator('.editor-group-container .tab').filter({ hasText: 'db.ts' }).first().click();
  });

  it('shows exactly the memories a CodeLens or a hover link names in the panel, then all of the file\'s again', async () => {
    const page = workbench.page;
    const cardTitles = async () => (await webviewFrame(page, SIDEBAR)).locator('article.memory-card h3.title').allInnerTexts();
    // The panel hidden behind the Explorer (its page unloaded): the lens must reveal it and still end on its memories.
    await runCommand(page, 'View: Show Explorer');
    await page.locator('.editor-group-container .tab').filter({ hasText: 'db.ts' }).first().click();
    await clickCodeLens(page, /^1\s+memory$/, { timeoutMs: UI_MS });
    await viewText(page, SIDEBAR, /Showing 1 memory from the CodeLens on findCustomer · Show all for this file/);
    await eventually('only the diff memory the lens names', async () => {
      const titles = await cardTitles();
      return titles.length === 1 && titles[0] === EDIT_TITLE ? true : undefined;
    });
    const sidebar = await webviewFrame(page, SIDEBAR);
    assert.equal(await sidebar.locator('.selection-banner').count(), 1);
    assert.doesNotMatch(await sidebar.locator(SIDEBAR).innerText(), /Constraints that apply here|Relevant memories/i);
    // The keyboard lands on the banner, once per request.
    await eventually('focus on the banner', async () => ((await sidebar.evaluate(() => document.activeElement?.getAttribute('data-focus'))) === 'selection-heading' ? true : undefined));
    // Its actions are the panel's own.
    const card = await sidebarCard(page, EDIT_TITLE);
    for (const action of ['Pin', 'Pin hard', 'Edit', 'Open diff', 'Copy as context', 'Forget']) assert.equal(await card.getByText(action, { exact: true }).count(), 1, action);
    await screenshot(page, 'memory-panel-from-codelens');

    // Hidden and shown again, the panel still shows them (the extension keeps the selection, the page its state).
    await runCommand(page, 'View: Show Explorer');
    await showSidebar(page);
    await viewText(page, SIDEBAR, /Showing 1 memory from the CodeLens on findCustomer/);

    // The hover's "Open in panel" link on the pinned code: only the constraint.
    await page.locator('.editor-group-container .tab').filter({ hasText: 'db.ts' }).first().click();
    await hoverOnLine(page, 7, 'acquire', { expect: /Open in panel/, timeoutMs: UI_MS });
    await page.locator('.monaco-hover a').filter({ hasText: 'Open in panel' }).first().click();
    await viewText(page, SIDEBAR, /Showing 1 memory from the hover on line 7 · Show all for this file/);
    await eventually('only the constraint the hover names', async () => {
      const titles = await cardTitles();
      return titles.length === 1 && titles[0]!.startsWith(CONSTRAINT) ? true : undefined;
    });

    // "Show all for this file" (from the keyboard): back to following the editor, with everything that applies.
    await (await webviewFrame(page, SIDEBAR)).locator('[data-focus="show-all"]').press('Enter');
    await viewText(page, SIDEBAR, /Constraints that apply here[\s\S]*Relevant memories/i, 'Show all for this file');
    const all = await cardTitles();
    assert.ok(all.some((t) => t.startsWith(CONSTRAINT)) && all.includes(EDIT_TITLE), JSON.stringify(all));
  });

  it('shows the timeline grouped by day, with the seeded constraint and the new diff memory', async () => {
    const page = workbench.page;
    await showTimeline(page);
    const text = await viewText(page, TIMELINE, new RegExp(`Today[\\s\\S]*${EDIT_TITLE.replace(/[()+]/g, '\\$&')}[\\s\\S]*${CONSTRAINT.replace(/[()]/g, '\\$&')}`));
    assert.match(text, /Editor, disk and you/);
    assert.match(text, /Pool size is 10 connections per process\./);
    assert.match(text, /6 memories/);
    await screenshot(page, 'memory-timeline-first-page');
  });

  it('searches the timeline with recall', async () => {
    const page = workbench.page;
    const frame = await webviewFrame(page, TIMELINE);
    await frame.locator('vscode-text-field.search input').fill('pool connections');
    const text = await viewText(page, TIMELINE, /Results for “pool connections”, best first[\s\S]*Pool size is 10 connections per process/);
    assert.doesNotMatch(text, /Today/);
    await frame.locator('.row.memory').first().click();
    await viewText(page, TIMELINE, /Why: Bursty traffic exhausted 5 connections during the sale\./);
    await frame.locator('vscode-text-field.search input').fill('');
    await viewText(page, TIMELINE, /Today/);
  });

  it('unpins and pins from the panel: the timeline and hover follow', async () => {
    const page = workbench.page;
    await showSidebar(page);
    await (await sidebarCard(page, CONSTRAINT)).getByText('Unpin', { exact: true }).click();
    await eventually('the constraint card to offer Pin hard', async () => ((await (await sidebarCard(page, CONSTRAINT)).getByText('Pin hard', { exact: true }).count()) ? true : undefined));
    const timeline = await webviewFrame(page, TIMELINE);
    const row = timeline.locator('.row.memory').filter({ hasText: CONSTRAINT });
    await eventually('the timeline row without its pin', async () => ((await row.count()) && !(await row.first().innerText()).includes('hard pin') ? true : undefined));

    await page.locator('.editor-group-container .tab').filter({ hasText: 'db.ts' }).first().click();
    const unpinned = await hoverOnLine(page, 7, 'acquire', { expect: /Engram · constraint/, timeoutMs: UI_MS });
    assert.doesNotMatch(unpinned, /hard-pinned/);

    await (await sidebarCard(page, CONSTRAINT)).getByText('Pin hard', { exact: true }).click();
    await eventually('the timeline row with its hard pin again', async () => ((await row.first().innerText().catch(() => '')).includes('hard pin') ? true : undefined));
    await hoverOnLine(page, 7, 'acquire', { expect: /Engram · hard-pinned constraint/, timeoutMs: UI_MS });
  });

  it('shares from the panel: the team file gets its line, the card, timeline and hover say team; Unshare takes it out', async () => {
    const page = workbench.page;
    const teamFile = path.join(demoDir, '.engram', 'memories.jsonl');
    assert.equal(existsSync(teamFile), false, 'nothing is written into the repository before a share');
    await showSidebar(page);
    await (await sidebarCard(page, CONSTRAINT)).getByText('Share', { exact: true }).click();
    await eventually('the constraint in the team file', async () => (existsSync(teamFile) && readFileSync(teamFile, 'utf8').includes(CONSTRAINT) ? true : undefined));
    await eventually('the card with its team mark', async () => ((await (await sidebarCard(page, CONSTRAINT)).locator('.badge.team').count()) ? true : undefined));
    const timeline = await webviewFrame(page, TIMELINE);
    const row = timeline.locator('.row.memory').filter({ hasText: CONSTRAINT });
    await eventually('the timeline row with its team mark', async () => ((await row.first().locator('.badge.team').count().catch(() => 0)) ? true : undefined));
    await page.locator('.editor-group-container .tab').filter({ hasText: 'db.ts' }).first().click();
    await hoverOnLine(page, 7, 'acquire', { expect: /hard-pinned constraint · team/, timeoutMs: UI_MS });

    await (await sidebarCard(page, CONSTRAINT)).getByText('Unshare', { exact: true }).click();
    await eventually('the constraint out of the team file', async () => (!readFileSync(teamFile, 'utf8').includes(CONSTRAINT) ? true : undefined));
    await eventually('the card without its team mark', async () => ((await (await sidebarCard(page, CONSTRAINT)).locator('.badge.team').count()) === 0 ? true : undefined));
  });

  it('forgets from the panel with Undo: gone from the timeline and hover, then back', async () => {
    const page = workbench.page;
    await goToLine(page, 7);
    await (await sidebarCard(page, CONSTRAINT)).getByText('Forget', { exact: true }).click();
    await viewText(page, SIDEBAR, /Forgot "All SQL goes through query\(\)[^"]*"\.\s*Undo/);
    await viewText(page, TIMELINE, /Today/, CONSTRAINT);
    // Other hovers (TypeScript's) may show; Engram's says nothing about code no constraint governs.
    assert.doesNotMatch(await hoverWithout(page, 7, 'acquire', CONSTRAINT), /Engram/);

    const sidebar = await webviewFrame(page, SIDEBAR);
    await sidebar.locator('.undo-bar vscode-button', { hasText: 'Undo' }).first().click();
    await viewText(page, SIDEBAR, new RegExp(`Restored[\\s\\S]*${CONSTRAINT.replace(/[()]/g, '\\$&')}`));
    await viewText(page, TIMELINE, new RegExp(CONSTRAINT.replace(/[()]/g, '\\$&')));
    await hoverOnLine(page, 7, 'acquire', { expect: /Engram · hard-pinned constraint/, timeoutMs: UI_MS });
  });

  it('shows an agent session, its compaction point and what it was given (the injection log)', async () => {
    const page = workbench.page;
    // What a Claude Code session leaves behind, written by another process as its hooks would.
    const project = openProject(demoDir, { ...process.env, ENGRAM_HOME: engramHome });
    try {
      const t0 = Date.now() - 10 * 60_000;
      project.sessions.upsert({ id: 'e2e-session-1', agent: 'claude-code', startedAt: t0, endedAt: null, branch: null, title: 'Tighten the pool', transcriptPath: null });
      const made = project.store.add({ kind: 'decision', title: 'Release connections in finally blocks', why: 'A leak under load exhausted the pool.', source: 'claude', sessionId: 'e2e-session-1', files: ['src/pool.ts'] }, t0 + 60_000);
      project.sessions.compacted('e2e-session-1', 'auto', t0 + 120_000);
      project.injections.log('e2e-session-1', 'session-start', [{ memoryId: seededIds[0]!, tokens: 42 }, { memoryId: made.id, tokens: 18 }], t0 + 121_000);
    } finally {
      project.close();
    }
    const timeline = await showTimeline(page);
    const text = await viewText(page, TIMELINE, /Claude Code · Tighten the pool[\s\S]*Context compacted here \(auto\) — 2 memories carried over[\s\S]*Release connections in finally blocks/);
    assert.match(text, /7 memories/);
    await timeline.locator('.row.compaction').first().click();
    await timeline.locator('vscode-button', { hasText: 'What the session was given' }).click();
    const log = await viewText(page, TIMELINE, /Session start · [\s\S]*2 memories, 60 tokens/);
    assert.match(log, /Claude Code · Tighten the pool/);
    assert.match(log, /All SQL goes through query\(\)/);
    assert.match(log, /Context compacted at .* \(auto\) — 2 memories carried over/);
    await timeline.locator('[role=tab]', { hasText: 'Timeline' }).click();
    await viewText(page, TIMELINE, /7 memories/);
  });

  it('keeps the timeline\'s filters after it was hidden', async () => {
    const page = workbench.page;
    let timeline = await showTimeline(page);
    await timeline.locator('vscode-button[data-focus="filters-toggle"]').click();
    await timeline.locator('vscode-checkbox', { hasText: 'Constraint' }).click();
    await viewText(page, TIMELINE, /Filters \(1\)[\s\S]*2 memories/);
    // Another editor in the timeline's group hides it (its page is unloaded); showing it again restores the page's state.
    await page.locator('.tabs-container .tab').filter({ hasText: 'Engram: Memory Timeline' }).first().click();
    await runCommand(page, 'File: New Untitled Text File');
    await eventually('the hidden timeline to be unloaded', async () => ((await webviewFrame(page, TIMELINE, 1000).then(() => true, () => false)) ? undefined : true));
    timeline = await showTimeline(page);
    const restored = await viewText(page, TIMELINE, /Filters \(1\)[\s\S]*2 memories/);
    assert.doesNotMatch(restored, /Pool size is 10/);
    await timeline.locator('vscode-button', { hasText: 'Clear filters' }).click();
    await viewText(page, TIMELINE, /7 memories/);
  });

  it('edits a memory\'s text from the panel; the timeline shows the new text', async () => {
    const page = workbench.page;
    await showSidebar(page);
    const card = await sidebarCard(page, 'Pool size is 10 connections per process.');
    await card.getByText('Edit', { exact: true }).click();
    const sidebar = await webviewFrame(page, SIDEBAR);
    const form = sidebar.locator('form.edit-form');
    await form.locator('vscode-text-field[aria-label="Title"] input').fill('Pool size is 12 connections per process.');
    await form.locator('vscode-text-field[aria-label="Why"] input').fill('Measured under the spring sale load.');
    await form.locator('vscode-button', { hasText: 'Save' }).click();
    await viewText(page, SIDEBAR, /Pool size is 12 connections per process\.[\s\S]*Why: Measured under the spring sale load\./);
    await viewText(page, TIMELINE, /Pool size is 12 connections per process\./, 'Pool size is 10');
  });

  it('saves screenshots of the panel and the timeline in dark and light themes', async () => {
    const page = workbench.page;
    let timeline = await showTimeline(page);
    const toggle = timeline.locator('vscode-button[data-focus="filters-toggle"]');
    if ((await toggle.getAttribute('aria-expanded')) === 'true') await toggle.click();
    await page.locator('.editor-group-container .tab').filter({ hasText: 'db.ts' }).first().click();
    await goToLine(page, 7);
    const sidebar = await showSidebar(page);
    await viewText(page, SIDEBAR, /at cursor/);
    await sidebar.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'memory-panel-dark');
    await useTheme(page, 'Light Modern');
    await screenshot(page, 'memory-panel-light');
    timeline = await showTimeline(page);
    // The timeline alone in the editor area, as a user reading it would have it.
    await runCommand(page, 'View: Toggle Maximize Editor Group').catch(() => undefined);
    await timeline.locator('.row.memory').filter({ hasText: EDIT_TITLE }).first().click();
    await viewText(page, TIMELINE, /Open diff/);
    await screenshot(page, 'memory-timeline-light');
    await useTheme(page, 'Dark Modern');
    await viewText(page, TIMELINE, /Open diff/);
    await screenshot(page, 'memory-timeline-dark');
    // The README shows these. A test run writes only to test-output/; `node scripts/screenshots.mjs`
    // asks for them to be copied to docs/screenshots/, which is committed.
    const docs = process.env.ENGRAM_UPDATE_SCREENSHOTS;
    if (docs) {
      mkdirSync(docs, { recursive: true });
      for (const name of README_SCREENSHOTS) copyFileSync(path.join(REPO_ROOT, 'test-output', 'screenshots', `${name}.png`), path.join(docs, `${name}.png`));
    }
  });

  it('lists the first 20 constraints of a file with many, counts the rest, and shows them all on "Show all"', async () => {
    const page = workbench.page;
    // Rules of src/pool.ts written by another process (a hook, the CLI), as a busy project has them.
    const project = openProject(demoDir, { ...process.env, ENGRAM_HOME: engramHome });
    try {
      for (let i = 1; i <= 23; i++) project.store.add({ kind: 'constraint', title: `Pool rule ${i}`, source: 'user', files: ['src/pool.ts'] }, Date.now() - 60_000 + i);
    } finally {
      project.close();
    }
    await openFile(page, 'src/pool.ts');
    await showSidebar(page);
    const more = await viewText(page, SIDEBAR, /3 more constraints apply to this file/);
    assert.match(more, /Constraints that apply here\s*23/i);
    const cardTitles = async () => (await webviewFrame(page, SIDEBAR)).locator('article.memory-card h3.title').allInnerTexts();
    const listed = (await cardTitles()).filter((t) => t.startsWith('Pool rule'));
    assert.deepEqual(listed, Array.from({ length: 20 }, (_, i) => `Pool rule ${i + 1}`));
    await (await webviewFrame(page, SIDEBAR)).locator('[data-focus="all-constraints"]').click();
    await viewText(page, SIDEBAR, /Showing \d+ memories from the memory panel · Show all for this file/);
    await eventually('every rule of the file', async () => ((await cardTitles()).filter((t) => t.startsWith('Pool rule')).length === 23 ? true : undefined));
  });
});
