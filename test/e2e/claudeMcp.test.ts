// Issue "MCP provider", done-when: the real Claude Code CLI (pinned, offline) calls Engram's MCP
// tools in a scripted model turn — remember, then recall — and the memory is then found by
// `engram recall`, in the editor's hover and in the timeline.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runClaude, type ClaudeRun } from '../support/claude/runClaude';
import { lastUserMessage, messageText, type MessagesRequest } from '../support/claude/standInApi';
import { ENGRAM_JS, REPO_ROOT, assertBuilt, runEngram } from '../support/engramProcess';
import { startLsp } from '../support/lspClient';
import { startMcp } from '../support/mcpClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

// The first run may install the CLI into .cache.
const TIMEOUT_MS = 300_000;
const PROMPT = 'Note for later: findCustomer must return null, not undefined, for a missing id.';
const RULE = 'findCustomer returns null, not undefined, when no customer has the id: callers compare with === null.';

function toolResultText(request: MessagesRequest): string {
  const last = lastUserMessage(request);
  return last ? messageText(last) : '';
}

function assertSucceeded(run: ClaudeRun): { result: string; session_id: string } {
  assert.equal(run.exitCode, 0, `claude exited ${run.exitCode}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`);
  assert.deepEqual(run.unusedRules, [], `some scripted replies were never asked for; requests: ${run.modelRequests.map((r) => messageText(lastUserMessage(r)!).slice(0, 300)).join('\n---\n')}`);
  return JSON.parse(run.stdout) as { result: string; session_id: string };
}

test('Claude Code remembers and recalls through mcp__engram__*, and the memory is in engram recall, hover and the timeline', { timeout: TIMEOUT_MS }, async (t) => {
  assertBuilt();
  const base = tempDir('engram-claude-mcp-');
  const workspace = path.join(base, 'demo');
  cpSync(path.join(REPO_ROOT, 'demo'), workspace, { recursive: true });
  mkdirSync(path.join(workspace, '.git'));
  const engramHome = path.join(base, 'engram-home');
  const env = isolatedEnv({ ENGRAM_HOME: engramHome });
  // Started by the CLI, inside its network namespace: a child process with files only.
  const mcpConfig = path.join(base, 'mcp.json');
  writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { engram: { type: 'stdio', command: process.execPath, args: [ENGRAM_JS, 'mcp'], env: { ENGRAM_HOME: engramHome } } } }));

  let recallAnswer = '';
  const run = await runClaude({
    cwd: realpathSync(workspace),
    args: ['-p', PROMPT, '--output-format', 'json', '--mcp-config', mcpConfig, '--strict-mcp-config', '--allowedTools', 'mcp__engram'],
    script: {
      rules: [
        // MCP tools are deferred in 2.1.330: the model loads their schemas with ToolSearch first.
        { lastUserIncludes: 'Note for later', reply: { toolUses: [{ name: 'ToolSearch', input: { query: 'select:mcp__engram__remember,mcp__engram__recall' } }] } },
        {
          afterToolResultOf: 'ToolSearch',
          offersTool: 'mcp__engram__remember',
          reply: {
            text: 'I will record this as a constraint on findCustomer.',
            toolUses: [{ name: 'mcp__engram__remember', input: { text: RULE, kind: 'constraint', files: ['src/db.ts'], symbols: ['findCustomer'], why: 'callers compare with === null' } }],
          },
        },
        {
          afterToolResultOf: 'mcp__engram__remember',
          offersTool: 'mcp__engram__recall',
          reply: { toolUses: [{ name: 'mcp__engram__recall', input: { query: 'what does findCustomer return for a missing id', file: 'src/db.ts' } }] },
        },
        {
          afterToolResultOf: 'mcp__engram__recall',
          when: (request) => {
            recallAnswer = toolResultText(request);
            return true;
          },
          reply: { text: 'Recorded, and recall finds it.' },
        },
      ],
    },
  });
  t.diagnostic(`claude -p with two MCP tool calls: ${run.durationMs} ms, network namespace: ${run.networkIsolated}`);
  const output = assertSucceeded(run);
  assert.equal(output.result, 'Recorded, and recall finds it.');
  assert.equal(run.modelRequests.length, 4);

  // Claude Code 2.1.330 gives the model a result's structured content (as JSON) rather than its text.
  const remembered = JSON.parse(toolResultText(run.modelRequests[2]!)) as { created: boolean; memory: { id: string; kind: string; source: string; place: string } };
  assert.equal(remembered.created, true);
  assert.deepEqual([remembered.memory.kind, remembered.memory.source, remembered.memory.place], ['constraint', 'mcp', 'src/db.ts › findCustomer']);
  const id = remembered.memory.id;
  const recalled = JSON.parse(recallAnswer) as { results: { id: string; title: string; reasons: string[] }[] };
  assert.equal(recalled.results[0]?.id, id);
  assert.ok(recalled.results[0]!.reasons.includes('about src/db.ts'), recalled.results[0]!.reasons.join(', '));

  // engram recall, as a developer would run it.
  const recall = await runEngram(['recall', '--query', 'findCustomer missing id', '--json'], { env, cwd: workspace });
  assert.equal(recall.code, 0, recall.stderr);
  const results = JSON.parse(recall.stdout).results as { id: string; source: string; kind: string; files: string[]; symbols: string[]; sessionId: string | null }[];
  const found = results.find((m) => m.id === id);
  assert.ok(found, `engram recall did not find ${id}: ${recall.stdout}`);
  assert.equal(found.source, 'mcp');
  assert.deepEqual([found.kind, found.files, found.symbols], ['constraint', ['src/db.ts'], ['findCustomer']]);
  // Claude Code tells the servers it starts its session (CLAUDE_CODE_SESSION_ID).
  assert.equal(found.sessionId, run.sessionId);

  // The editor's hover on findCustomer shows it as a constraint governing the symbol.
  const lsp = startLsp(env);
  try {
    const file = path.join(workspace, 'src', 'db.ts');
    const uri = pathToFileURL(file).href;
    await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: 'demo' }], capabilities: {} });
    await lsp.connection.sendNotification('initialized', {});
    await lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: readFileSync(file, 'utf8') } });
    const hover = (await lsp.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 15, character: 4 } })) as { contents: { value: string } } | null;
    assert.match(hover?.contents.value ?? '', /constraint\*\* — findCustomer returns null, not undefined/);
  } finally {
    await lsp.close();
  }

  // The timeline (MCP's `timeline` tool) lists it among the latest memories.
  const mcp = await startMcp({ env, project: workspace });
  try {
    const timeline = await mcp.call('timeline', { since: '1h' });
    assert.ok((timeline.structuredContent as { memories: { id: string }[] }).memories.some((m) => m.id === id), JSON.stringify(timeline.content));
  } finally {
    await mcp.close();
  }
});
