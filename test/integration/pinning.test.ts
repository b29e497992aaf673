import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { MemorySummary, RecallResult } from '../../contracts/protocol';
import { REPO_ROOT, runEngram } from '../support/engramProcess';
import { eventually } from '../support/eventually';
import { startLsp, type LspSession } from '../support/lspClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

interface Lens { range: { start: { line: number } }; command: { title: string; command: string; arguments: unknown[] } }
type HoverResult = { contents: { value: string } } | null;

describe('pinning a selection as a constraint, through the memory server', () => {
  const env = isolatedEnv();
  const root = path.join(tempDir('engram-pin-'), 'demo');
  const file = () => path.join(root, 'src', 'db.ts');
  const uri = () => pathToFileURL(file()).href;
  let text: string;
  let version = 1;
  let lsp: LspSession;
  let pinned: MemorySummary;

  const hover = (line: number) => lsp.connection.sendRequest('textDocument/hover', { textDocument: { uri: uri() }, position: { line, character: 2 } }) as Promise<HoverResult>;
  const lenses = () => lsp.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: uri() } }) as Promise<Lens[]>;
  const change = (range: { start: { line: number; character: number }; end: { line: number; character: number } }, newText: string) =>
    lsp.connection.sendNotification('textDocument/didChange', { textDocument: { uri: uri(), version: ++version }, contentChanges: [{ range, text: newText }] });

  before(async () => {
    cpSync(path.join(REPO_ROOT, 'demo'), root, { recursive: true });
    mkdirSync(path.join(root, '.git'));
    text = readFileSync(file(), 'utf8');
    lsp = startLsp(env);
    await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'demo' }], capabilities: {} });
    await lsp.connection.sendNotification('initialized', {});
    await lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(), languageId: 'typescript', version, text } });
  });
  after(async () => lsp?.close());

  it('suggests the rule from the comment above the selection and names the symbol', async () => {
    const suggestion = await lsp.connection.sendRequest('engram/pinSuggestion', { uri: uri(), range: { start: { line: 5, character: 0 }, end: { line: 13, character: 0 } } });
    assert.deepEqual(suggestion, { rule: 'Runs one SQL statement with bound parameters.', symbol: 'query', path: 'src/db.ts' });
  });

  it('pins the code and shows it on hover (with open and unpin links) and in CodeLens', async () => {
    // The file's rules were read at open and by this hover; the pin must still show.
    assert.equal(await hover(7), null, 'no rule governs the code before the pin');
    pinned = (await lsp.connection.sendRequest('engram/pinConstraint', {
      uri: uri(),
      range: { start: { line: 4, character: 0 }, end: { line: 13, character: 0 } },
      rule: 'All SQL goes through query() with bound parameters.',
      scope: 'code',
      strength: 'hard',
    })) as MemorySummary;
    assert.deepEqual(pinned.anchor, { path: 'src/db.ts', startLine: 4, endLine: 12, stale: false });
    const shown = await hover(7);
    assert.match(shown!.contents.value, /hard-pinned constraint\*\* — All SQL goes through query\\\(\\\) with bound parameters\\\./);
    assert.match(shown!.contents.value, /\[Unpin\]\(command:engram\.unpin\?/);
    assert.match(shown!.contents.value, /\[Open in panel\]\(command:engram\.showMemories\?/);
    assert.equal(await hover(1), null, 'nothing on code the rule does not govern');
    const found = await lenses();
    assert.equal(found.find((l) => l.range.start.line === 0)!.command.title, 'Engram: 1 constraint');
    assert.equal(found.find((l) => l.command.title.startsWith('$(pin)'))!.range.start.line, 4);
  });

  it('follows edits above it before they are saved, and stores where it went on save', async () => {
    await change({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, '// one\n// two\n// three\n');
    const moved = await hover(10);
    assert.match(moved!.contents.value, /All SQL goes through query/);
    assert.equal(await hover(5), null, 'the old place is no longer governed');
    assert.equal((await lenses()).find((l) => l.command.title.startsWith('$(pin)'))!.range.start.line, 7);
    await lsp.connection.sendNotification('textDocument/didSave', { textDocument: { uri: uri() } });
    await new Promise((r) => setTimeout(r, 200));
    const stored = JSON.parse((await runEngram(['recall', '--file', 'src/db.ts', '--json'], { env, cwd: root })).stdout).results.find((m: { id: string }) => m.id === pinned.id);
    assert.deepEqual([stored.anchor.range.startLine, stored.anchor.range.endLine, stored.anchor.stale], [7, 15, false]);
  });

  it('recalls for the cursor over LSP: the symbol there and the constraint first', async () => {
    const answer = (await lsp.connection.sendRequest('engram/recall', { uri: uri(), position: { line: 9, character: 0 }, budget: 500 })) as RecallResult;
    assert.equal(answer.symbol, 'query');
    assert.equal(answer.results[0]!.memory.id, pinned.id);
    assert.match(answer.context!.text, /Constraints that apply here:\n- \[constraint, hard pin, from the user\] «All SQL goes through query/);
  });

  it('marks the constraint stale when its code is deleted, and says so in CodeLens', async () => {
    await change({ start: { line: 7, character: 0 }, end: { line: 16, character: 0 } }, '');
    assert.equal(await hover(8), null);
    const stale = (await lenses()).find((l) => l.command.title.includes('stale'));
    assert.equal(stale?.range.start.line, 0);
    assert.match(stale!.command.title, /stale constraint \(its code is gone\): All SQL goes through query/);
    await lsp.connection.sendNotification('textDocument/didSave', { textDocument: { uri: uri() } });
    await new Promise((r) => setTimeout(r, 200));
    const stored = JSON.parse((await runEngram(['recall', '--file', 'src/db.ts', '--json'], { env, cwd: root })).stdout).results.find((m: { id: string }) => m.id === pinned.id);
    assert.equal(stored.anchor.stale, true, 'kept, marked stale — never dropped');
  });

  it('answers malformed requests with a clear InvalidParams error and keeps serving', async () => {
    await assert.rejects(lsp.connection.sendRequest('engram/pinConstraint', { uri: uri(), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, rule: 'x', scope: 'glob', strength: 'hard' }), /a glob scope needs a glob/);
    await assert.rejects(lsp.connection.sendRequest('engram/recall', { limit: 'ten' }), /limit: Invalid input: expected number/);
    await assert.rejects(lsp.connection.sendRequest('engram/recall', { uri: uri(), position: { line: 5000, character: 0 } }), /line 5001 is past the end of src\/db\.ts/);
    const ok = (await lsp.connection.sendRequest('engram/recall', { query: '"bound (parameters' })) as RecallResult;
    assert.equal(ok.results[0]!.memory.id, pinned.id);
  });
});

describe('a pin whose code is deleted all but its indentation', () => {
  const env = isolatedEnv();
  const root = tempDir('engram-pin-blank-');
  const file = path.join(root, 'src', 'orders.ts');
  const uri = pathToFileURL(file).href;
  const text = ['export class OrderService {', '  cancel(id: string) {', '    audit(id);', '    return this.store.remove(id);', '  }', '', '  list() {', '    return this.store.all();', '  }', '}', ''].join('\n');
  let lsp: LspSession;

  before(async () => {
    mkdirSync(path.join(root, '.git'));
    mkdirSync(path.join(root, 'src'));
    writeFileSync(file, text);
    lsp = startLsp(env);
    await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'orders' }], capabilities: {} });
    await lsp.connection.sendNotification('initialized', {});
    await lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text } });
  });
  after(async () => lsp?.close());

  it('is stale once saved, not pinned to the whitespace left behind (the method selected from its name to its last brace, deleted, saved)', async () => {
    const pinned = (await lsp.connection.sendRequest('engram/pinConstraint', {
      uri,
      range: { start: { line: 1, character: 0 }, end: { line: 5, character: 0 } },
      rule: 'Cancelling an order is audited first.',
      scope: 'code',
      strength: 'hard',
    })) as MemorySummary;
    assert.deepEqual(pinned.anchor, { path: 'src/orders.ts', startLine: 1, endLine: 4, stale: false });
    // The selection starts after the indentation of `cancel(` and ends after the method's `}`.
    await lsp.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line: 1, character: 2 }, end: { line: 4, character: 3 } }, text: '' }] });
    await lsp.connection.sendNotification('textDocument/didSave', { textDocument: { uri } });
    const stored = await eventually('the anchor stored at save', async () => {
      const recalled = await runEngram(['recall', '--file', 'src/orders.ts', '--json'], { env, cwd: root });
      const memory = (JSON.parse(recalled.stdout) as { results: { id: string; anchor: { stale: boolean; range: { startLine: number; endLine: number } } }[] }).results.find((m) => m.id === pinned.id);
      return memory?.anchor.stale ? memory.anchor : undefined;
    });
    assert.deepEqual([stored.range.startLine, stored.range.endLine], [1, 4], 'kept where the code was, as for any deleted code');
    const lens = ((await lsp.connection.sendRequest('textDocument/codeLens', { textDocument: { uri } })) as Lens[]).find((l) => l.command.title.includes('stale'));
    assert.match(lens!.command.title, /stale constraint \(its code is gone\): Cancelling an order is audited first/);
  });
});
