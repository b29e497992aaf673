// Drives a code-server workbench (VS Code 1.139) in Debian's Chromium through playwright-core.
// Selectors were checked against code-server 4.139.1's workbench.js.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, basename } from 'node:path';
import { chromium, type Browser, type Frame, type Locator, type Page } from 'playwright-core';

import { CHROMIUM_PATH } from '../../../scripts/lib/chromium.mjs';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
export const SCREENSHOT_DIR = resolve(__dirname, '..', '..', '..', 'test-output', 'screenshots');

const WORKBENCH_TIMEOUT_MS = 30_000;
const UI_TIMEOUT_MS = 10_000;

export interface Workbench {
  browser: Browser;
  page: Page;
  /** Browser console messages and page errors, "[type] text"; the extension host's console lands here too. */
  consoleLines: string[];
  /** Resolves with the code passed to window.codeAutomationExit (smoke-test driver / extension tests). */
  automationExit: Promise<number>;
  close(): Promise<void>;
}

/** Chromium's temporary HOMEs, removed at exit if a crashed test never closed its browser. */
const browserHomes = new Set<string>();
process.on('exit', () => {
  for (const dir of browserHomes) rmSync(dir, { recursive: true, force: true });
});

export async function openWorkbench(
  url: string,
  opts: { colorTheme?: string; timeoutMs?: number; viewport?: { width: number; height: number } } = {},
): Promise<Workbench> {
  // Chromium (and Debian's wrapper script) write under $HOME: ~/.pki, ~/.config/chromium.
  const browserHome = mkdtempSync(join(tmpdir(), 'engram-chromium-'));
  browserHomes.add(browserHome);
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close().catch(() => {});
    rmSync(browserHome, { recursive: true, force: true });
    browserHomes.delete(browserHome);
  };
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      env: { ...process.env, HOME: browserHome, XDG_CONFIG_HOME: join(browserHome, 'config'), XDG_CACHE_HOME: join(browserHome, 'cache') },
    });
    const page = await browser.newPage({ viewport: opts.viewport ?? { width: 1400, height: 900 } });
    // Bounds every Playwright wait that does not set its own, so a missing element fails a test
    // in seconds with a named selector instead of hanging until the test runner's timeout.
    page.setDefaultTimeout(15_000);
    const consoleLines: string[] = [];
    page.on('console', (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
    page.on('pageerror', (error) => consoleLines.push(`[pageerror] ${error.message}`));
    let reportExit: (code: number) => void = () => {};
    const automationExit = new Promise<number>((r) => (reportExit = r));
    // Must exist before the workbench loads: it calls this when the extension tests end.
    await page.exposeFunction('codeAutomationExit', (code: number) => reportExit(code));

    const timeout = opts.timeoutMs ?? WORKBENCH_TIMEOUT_MS;
    await page.goto(url, { timeout });
    try {
      await page.locator('.monaco-workbench').first().waitFor({ state: 'visible', timeout });
    } catch {
      throw new Error(
        `the VS Code workbench did not appear at ${url} within ${timeout / 1000} s; browser console:\n${consoleLines.slice(-20).join('\n')}`,
      );
    }
    if (opts.colorTheme) await selectColorTheme(page, opts.colorTheme);
    return { browser, page, consoleLines, automationExit, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function selectColorTheme(page: Page, theme: string): Promise<void> {
  // Right after start the theme extensions may not be registered yet and the picker opens empty;
  // reopen it until it lists themes.
  const deadline = Date.now() + 20_000;
  const rows = quickInput(page).locator('.monaco-list-row');
  for (;;) {
    await runCommand(page, 'Preferences: Color Theme', { waitForClose: false });
    // The theme picker replaces the palette in the same widget.
    await page
      .locator('.quick-input-widget .quick-input-box input[placeholder*="Theme" i]')
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
    if (await rows.first().waitFor({ state: 'visible', timeout: 2000 }).then(() => true, () => false)) break;
    await page.keyboard.press('Escape');
    if (Date.now() > deadline) throw new Error('the color theme picker stayed empty');
    await page.waitForTimeout(500);
  }
  if (!(await pickQuickInputItem(page, theme))) {
    const labels = await quickInputLabels(page);
    await page.keyboard.press('Escape');
    throw new Error(`no color theme "${theme}"; themes: ${JSON.stringify(labels)}`);
  }
  await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
}

function quickInput(page: Page) {
  return page.locator('.quick-input-widget');
}

/**
 * Filters the open quick input by `label` and clicks the row whose label is exactly that (not Enter,
 * so a filter still catching up cannot run its first guess). False if no such row shows in time.
 */
async function pickQuickInputItem(page: Page, label: string, opts: { prefix?: string; timeoutMs?: number } = {}): Promise<boolean> {
  const input = quickInput(page).locator('.quick-input-box input');
  await input.fill(`${opts.prefix ?? ''}${label}`, { timeout: opts.timeoutMs ?? UI_TIMEOUT_MS });
  const row = quickInput(page)
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name').getByText(label, { exact: true }) })
    .first();
  if (!(await row.waitFor({ state: 'visible', timeout: opts.timeoutMs ?? UI_TIMEOUT_MS }).then(() => true, () => false))) return false;
  await row.click();
  return true;
}

/** Labels the open quick input lists without a filter, for error messages. */
async function quickInputLabels(page: Page, prefix = ''): Promise<string[]> {
  await quickInput(page).locator('.quick-input-box input').fill(prefix).catch(() => {});
  await page.waitForTimeout(300);
  const labels = await quickInput(page).locator('.monaco-list-row .label-name').allInnerTexts().catch(() => []);
  return labels.slice(0, 20);
}

async function openCommandPalette(page: Page): Promise<void> {
  const input = quickInput(page).locator('.quick-input-box input');
  if (await quickInput(page).isVisible()) {
    await page.keyboard.press('Escape');
    await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
  }
  await page.keyboard.press('Control+Shift+P');
  if (await input.waitFor({ state: 'visible', timeout: 3000 }).then(() => true, () => false)) return;
  // Focus inside a webview or on nothing may swallow the shortcut; retry from the document body.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

/** Runs a command by its palette title, e.g. "View: Toggle Word Wrap". */
export async function runCommand(page: Page, title: string, opts: { waitForClose?: boolean; timeoutMs?: number } = {}): Promise<void> {
  // The palette lists the commands known when it opens; an extension's may come a little later.
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  for (;;) {
    await openCommandPalette(page);
    // The palette can close under the typing (focus taken by a webview that is being hidden, seen
    // on a busy machine): open it again rather than wait out the whole deadline on a closed one.
    if (await pickQuickInputItem(page, title, { prefix: '>', timeoutMs: 2000 }).catch(() => false)) break;
    if (Date.now() > deadline) {
      const labels = await quickInputLabels(page, '>');
      await page.keyboard.press('Escape');
      throw new Error(`no command "${title}" in the command palette; first commands: ${JSON.stringify(labels)}`);
    }
    await page.waitForTimeout(500);
  }
  if (opts.waitForClose ?? true) await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
}

/** Opens a workspace file through the Explorer (quick open does not list files right after start). */
export async function openFile(page: Page, relativePath: string): Promise<void> {
  const explorer = page.locator('.explorer-folders-view');
  if (!(await explorer.isVisible())) await runCommand(page, 'View: Show Explorer');
  await explorer.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });

  const segments = relativePath.split(/[\\/]/).filter(Boolean);
  for (const [index, segment] of segments.entries()) {
    // aria-level is 1 for the workspace folder's children in a single-folder workspace.
    const row = explorer.locator(`.monaco-list-row[aria-level="${index + 1}"]`).filter({
      has: page.locator('.label-name').getByText(segment, { exact: true }),
    });
    await row.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS }).catch(() => {
      throw new Error(`Explorer shows no "${segments.slice(0, index + 1).join('/')}"`);
    });
    const isLast = index === segments.length - 1;
    if (!isLast && (await row.first().getAttribute('aria-expanded')) === 'true') continue;
    await row.first().click();
  }

  const name = basename(relativePath);
  await page
    .locator(`.editor-group-container.active .tab.active[data-resource-name="${cssString(name)}"]`)
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS })
    .catch(() => {
      throw new Error(`no active editor tab "${name}" after clicking it in the Explorer`);
    });
  await activeEditor(page).locator('.view-lines .view-line').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

function cssString(value: string): string {
  return value.replace(/["\\]/g, '\\$&');
}

/** The text editor of the active group, or else the first visible one (a webview may be the active group). */
function activeEditor(page: Page): Locator {
  const inActiveGroup = page.locator('.editor-group-container.active .editor-instance .monaco-editor');
  const anyVisible = page.locator('.editor-group-container .editor-instance .monaco-editor').filter({ visible: true });
  return inActiveGroup.or(anyVisible).first();
}

/**
 * Puts the cursor at the start of a 1-based line of the active editor, and waits until the
 * editor says it is there: keys typed before "Go to Line" has its input (right after a click in
 * the Explorer, say) land elsewhere, and the next keys then act on the wrong lines.
 */
export async function goToLine(page: Page, line: number): Promise<void> {
  // "Go to Line" acts on the active text editor wherever the focus is (the Explorer, a webview).
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+G');
  const input = quickInput(page).locator('.quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  await input.fill(`:${line}`);
  await page.keyboard.press('Enter');
  await quickInput(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
  await page.keyboard.press('Home');
  await page.keyboard.press('Home');
  await cursorReaches(page, new RegExp(`^Ln ${line}, Col 1$`));
}

/** Selects `count` whole lines from a 1-based line of the active editor (the selection ends at column 1 of the next line). */
export async function selectLines(page: Page, first: number, count: number): Promise<void> {
  await goToLine(page, first);
  for (let i = 0; i < count; i++) await page.keyboard.press('Shift+ArrowDown');
  await cursorReaches(page, new RegExp(`^Ln ${first + count}, Col 1 \\(\\d+ selected\\)$`));
}

/** Waits for the status bar's cursor position (e.g. "Ln 16, Col 1 (108 selected)") to match. */
async function cursorReaches(page: Page, position: RegExp): Promise<void> {
  const deadline = Date.now() + UI_TIMEOUT_MS;
  let shown = '';
  while (Date.now() < deadline) {
    shown = (await page.locator('.part.statusbar #status\\.editor\\.selection').innerText().catch(() => '')).trim();
    if (position.test(shown)) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`the cursor is not where it was put: the status bar says "${shown}", expected ${position}`);
}

/** Viewport point over `text` (or the line's first token) on a rendered 1-based line, or null if the line is not rendered. */
async function pointOnLine(page: Page, line: number, text?: string): Promise<{ x: number; y: number } | null> {
  const editor = activeEditor(page);
  const lineNumber = editor.locator('.margin-view-overlays .line-numbers').getByText(String(line), { exact: true });
  if (!(await lineNumber.count())) return null;
  const numberBox = await lineNumber.first().boundingBox();
  if (!numberBox) return null;
  const centerY = numberBox.y + numberBox.height / 2;
  return editor.locator('.view-lines').evaluate(
    (viewLines, { centerY, text }) => {
      const lineNode = Array.from(viewLines.querySelectorAll<HTMLElement>('.view-line')).find((node) => {
        const box = node.getBoundingClientRect();
        return box.top <= centerY && centerY < box.bottom;
      });
      if (!lineNode) return null;
      // Monaco renders spaces as U+00A0.
      const content = (lineNode.textContent ?? '').replace(/\u00a0/g, ' ');
      let start: number;
      let length: number;
      if (text) {
        start = content.indexOf(text);
        length = text.length;
      } else {
        const token = /\S+/.exec(content);
        start = token ? token.index : -1;
        length = token ? Math.min(token[0].length, 3) : 0;
      }
      if (start < 0) return null;
      // Map the character offset onto the token spans' text nodes to measure it.
      const walker = document.createTreeWalker(lineNode, NodeFilter.SHOW_TEXT);
      const target = start + Math.floor(length / 2);
      let offset = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const size = node.textContent?.length ?? 0;
        if (target < offset + size) {
          const range = document.createRange();
          range.setStart(node, target - offset);
          range.setEnd(node, target - offset + 1);
          const box = range.getBoundingClientRect();
          return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
        }
        offset += size;
      }
      return null;
    },
    { centerY, text },
  );
}

/**
 * Hovers over `text` (or the first token) on a 1-based line of the active editor and returns the
 * hover's text. Retries: language features answer only once their server is up.
 */
export async function hoverOnLine(page: Page, line: number, text?: string, opts: { timeoutMs?: number; expect?: RegExp } = {}): Promise<string> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  // Right after a file opens, Monaco may not have painted its lines yet: give it a moment
  // before scrolling there with "Go to Line".
  let point = await pointOnLine(page, line, text);
  for (const paintBy = Date.now() + 5000; !point && Date.now() < paintBy; ) {
    await page.waitForTimeout(200);
    point = await pointOnLine(page, line, text);
  }
  if (!point) {
    await goToLine(page, line);
    point = await pointOnLine(page, line, text);
  }
  if (!point) throw new Error(`line ${line}${text ? ` with "${text}"` : ''} is not rendered in the active editor`);

  const hover = page.locator('.monaco-editor .monaco-hover:not(.hidden)').filter({ visible: true });
  let lastSeen = '';
  while (Date.now() < deadline) {
    // Moving away first makes each attempt a fresh hover request.
    await page.mouse.move(point.x, point.y + 200);
    await page.mouse.move(point.x, point.y, { steps: 3 });
    const attemptEnd = Math.min(deadline, Date.now() + 2500);
    while (Date.now() < attemptEnd) {
      const texts = await hover.allInnerTexts().catch(() => []);
      lastSeen = texts.join('\n').trim();
      if (lastSeen && !/^Loading\.*$/.test(lastSeen) && (!opts.expect || opts.expect.test(lastSeen))) return lastSeen;
      await page.waitForTimeout(150);
    }
  }
  throw new Error(`no hover on line ${line}${text ? ` over "${text}"` : ''}${lastSeen ? `; last hover: ${JSON.stringify(lastSeen)}` : ''}`);
}

/** Texts of the CodeLenses currently rendered in the active editor, one per lens. */
export async function codeLensTexts(page: Page): Promise<string[]> {
  const decorations = await activeEditor(page).locator('.contentWidgets .codelens-decoration').allTextContents();
  return decorations
    .flatMap((decoration) => decoration.split('\u00a0|\u00a0'))
    .map((lens) => lens.replace(/\u00a0/g, ' ').trim())
    .filter((lens) => lens && lens !== 'no commands');
}

/**
 * Clicks the CodeLens whose text matches (each lens is a link in its line's decoration; Monaco may
 * render spaces as U+00A0, which `\s` matches). Waits for it: lenses come a little after edits.
 */
export async function clickCodeLens(page: Page, text: RegExp, opts: { timeoutMs?: number } = {}): Promise<void> {
  const lens = activeEditor(page).locator('.contentWidgets .codelens-decoration a').filter({ hasText: text }).first();
  await lens.waitFor({ state: 'visible', timeout: opts.timeoutMs ?? UI_TIMEOUT_MS }).catch(async () => {
    throw new Error(`no CodeLens matching ${text}; lenses: ${JSON.stringify(await codeLensTexts(page))}`);
  });
  await lens.click();
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * Texts of the status bar items, joined by " | ". With `idPrefix`, only items whose id or
 * aria-label contains it (case-insensitive); an extension's items have ids "<publisher>.<name>…".
 */
export async function statusBarText(page: Page, idPrefix?: string): Promise<string> {
  const items = await page.locator('.part.statusbar .statusbar-item').evaluateAll(
    (nodes, needle) =>
      nodes
        .filter((node) => {
          if (!needle) return true;
          const haystack = `${node.id} ${node.getAttribute('aria-label') ?? ''} ${node.querySelector('[aria-label]')?.getAttribute('aria-label') ?? ''}`;
          return haystack.toLowerCase().includes(needle.toLowerCase());
        })
        .map((node) => (node as HTMLElement).innerText.replace(/\s+/g, ' ').trim())
        .filter(Boolean),
    idPrefix ?? '',
  );
  return items.join(' | ');
}

/** Which webview to read: the panel with this title, or the first whose content matches a CSS selector. */
export type WebviewTarget = { readonly title: string } | { readonly selector: string };

/**
 * Text of a webview's content. Webviews are an outer iframe (VS Code's host page) around an inner
 * `#active-frame` whose title attribute is the panel title. With a selector, the text of the
 * matching element is returned.
 */
export async function webviewFrameText(page: Page, target: WebviewTarget, opts: { timeoutMs?: number } = {}): Promise<string> {
  const deadline = Date.now() + (opts.timeoutMs ?? UI_TIMEOUT_MS);
  for (;;) {
    const frames = await webviewContentFrames(page);
    for (const { frame, title } of frames) {
      if ('selector' in target) {
        const element = frame.locator(target.selector).first();
        if (await element.count().catch(() => 0)) return (await element.innerText()).trim();
      } else if (title === target.title || (await frame.title().catch(() => '')) === target.title) {
        const text = await frame.locator('body').innerText().catch(() => '');
        if (text.trim()) return text.trim();
      }
    }
    if (Date.now() > deadline) {
      throw new Error(`no webview matching ${JSON.stringify(target)}; webviews: ${JSON.stringify(frames.map((f) => f.title))}`);
    }
    await page.waitForTimeout(200);
  }
}

async function webviewContentFrames(page: Page): Promise<{ frame: Frame; title: string }[]> {
  const found: { frame: Frame; title: string }[] = [];
  for (const frame of page.frames()) {
    if (frame === page.mainFrame() || !frame.parentFrame()) continue;
    const element = await frame.frameElement().catch(() => null);
    if (!element) continue;
    const [id, title] = await element
      .evaluate((node) => [(node as HTMLIFrameElement).id, (node as HTMLIFrameElement).getAttribute('title') ?? ''])
      .catch(() => ['', '']);
    await element.dispose();
    if (id === 'active-frame') found.push({ frame, title: title ?? '' });
  }
  return found;
}
