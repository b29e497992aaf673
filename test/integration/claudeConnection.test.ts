import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { ClaudeConnection, InjectionEntry, ServerStatusParams } from '../../contracts/protocol';
import { REPO_ROOT, runEngram } from '../support/engramProcess';
import { startLsp, type LspSession } from '../support/lspClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

describe('the memory server and Claude Code hooks together', () => {
  const root = path.join(tempDir('engram-claude-conn-'), 'demo');
  const env = isolatedEnv({ CLAUDE_CONFIG_DIR: tempDir('engram-claude-config-') });
  const dbUri = () => pathToFileURL(path.join(root, 'src', 'db.ts')).href;
  let lsp: LspSession;

  before(async () => {
    cpSync(path.join(REPO_ROOT, 'demo'), root, { recursive: true });
    mkdirSync(path.join(root, '.git'));
    for (const args of [
      ['--kind', 'constraint', '--file', 'src/db.ts', '--lines', '5-13', '--pin', 'hard', 'All SQL goes through query() with bound parameters.'],
      ['--kind', 'gotcha', '--file', 'src/db.ts', '--symbol', 'findCustomer', 'findCustomer returns null, not undefined, for a missing id.'],
    ]) assert.equal((await runEngram(['remember', ...args], { env, cwd: root })).code, 0);
    lsp = startLsp(env);
    await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'demo' }], capabilities: {}, initializationOptions: { windowId: 'window-1' } });
    await lsp.connection.sendNotification('initialized', {});
    await lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: dbUri(), languageId: 'typescript', version: 1, text: readFileSync(path.join(root, 'src', 'db.ts'), 'utf8') } });
  });
  after(async () => lsp?.close());

  it("keeps the editor's place for hooks: a prompt gets the memories of the file and symbol the user is in", async () => {
    await lsp.connection.sendNotification('engram/editorState', { uri: dbUri(), position: { line: 16, character: 4 }, selection: null });
    await new Promise((r) => setTimeout(r, 600));
    const input = JSON.stringify({ session_id: 'sess-1', cwd: root, hook_event_name: 'UserPromptSubmit', prompt: 'Can you tidy this up?' });
    const hook = await runEngram(['hook', 'user-prompt-submit'], { env: { ...env, ENGRAM_WINDOW: 'window-1' }, cwd: root, stdin: input });
    assert.equal(hook.code, 0);
    const context = JSON.parse(hook.stdout).hookSpecificOutput.additionalContext as string;
    assert.match(context, /\[constraint, hard pin, from the user\] «All SQL goes through query\(\)/);
    assert.match(context, /About src\/db\.ts › findCustomer:\n  - \[gotcha, from the user\] «findCustomer returns null/);
  });

  it('shows the live Claude Code session in its status, and what it was given', async () => {
    const status = (await lsp.waitFor('engram/status', (p) => (p as ServerStatusParams).agentSession !== null, 10_000)) as ServerStatusParams;
    assert.equal(status.agentSession!.sessionId, 'sess-1');
    assert.equal(status.agentSession!.memoriesGiven, 2);
    const given = (await lsp.connection.sendRequest('engram/injections', { sessionId: 'sess-1', projectRoot: status.agentSession!.projectRoot })) as InjectionEntry[];
    assert.deepEqual(given.map((g) => [g.event, g.memory?.kind]).sort(), [['user-prompt-submit', 'constraint'], ['user-prompt-submit', 'gotcha']]);
  });

  it('connects and disconnects Claude Code for the project', async () => {
    const before = (await lsp.connection.sendRequest('engram/claudeConnection', {})) as ClaudeConnection;
    assert.equal(before.connected, false);
    // The workspace folder's own URI, as the Connect Claude Code command sends it.
    const connected = (await lsp.connection.sendRequest('engram/connectClaude', { uri: pathToFileURL(root).href, share: false })) as ClaudeConnection;
    assert.equal(connected.connected, true);
    assert.equal(connected.mcp, 'local');
    const shim = path.join(env.ENGRAM_HOME!, 'bin', 'engram');
    assert.ok(existsSync(shim));
    assert.match(readFileSync(path.join(root, '.claude', 'settings.local.json'), 'utf8'), new RegExp(`${shim.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} hook user-prompt-submit`));
    const disconnected = (await lsp.connection.sendRequest('engram/disconnectClaude', {})) as ClaudeConnection;
    assert.deepEqual([disconnected.connected, disconnected.hooks, disconnected.mcp], [false, [], null]);
  });
});
