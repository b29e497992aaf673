import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { encodeProjectFolder } from '../../server/src/transcripts/projectFolder';
import { REPO_ROOT, runEngram } from '../support/engramProcess';
import { eventually } from '../support/eventually';
import { startLsp, type LspSession } from '../support/lspClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const SAMPLE = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'claude-code', 'write-edit-session.jsonl');

describe('the memory server follows Claude Code transcripts live', () => {
  const root = tempDir('engram-follow-');
  const configDir = tempDir('engram-claude-');
  const env = isolatedEnv({ CLAUDE_CONFIG_DIR: configDir });
  const folder = path.join(configDir, 'projects', encodeProjectFolder(root));
  let transcript: string;
  let lines: string[];
  let lsp: LspSession;

  const titles = async () => {
    const result = await runEngram(['recall', '--file', 'notes.md', '--json', '--limit', '20'], { env, cwd: root });
    return (JSON.parse(result.stdout).results as { title: string }[]).map((m) => m.title).sort();
  };

  before(async () => {
    mkdirSync(path.join(root, '.git'));
    mkdirSync(folder, { recursive: true });
    lines = readFileSync(SAMPLE, 'utf8').split('/home/dev/project').join(root).split('\n').filter(Boolean);
    const sessionId = (JSON.parse(lines[0]!) as { sessionId?: string }).sessionId ?? lines.map((l) => JSON.parse(l).sessionId).find(Boolean);
    transcript = path.join(folder, `${sessionId}.jsonl`);
    // A session that ran before VS Code started: the backfill at start must pick it up.
    writeFileSync(transcript, `${lines.join('\n')}\n`);
    lsp = startLsp(env);
    await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'p' }], capabilities: {} });
    await lsp.connection.sendNotification('initialized', {});
  });

  after(async () => lsp?.close());

  it('ingests the sessions that ran before it started', async () => {
    const found = await eventually('the backfilled memories', async () => {
      const current = await titles();
      return current.length === 2 ? current : undefined;
    }, { context: () => lsp.stderr() });
    assert.deepEqual(found, ['Created notes.md (+2)', 'Edited notes.md (+1 \u22121)']);
  });

  it('ingests an edit appended to a transcript within about a second', async () => {
    const editLine = lines.find((l) => l.includes('"oldString":"alpha"'))!;
    const record = JSON.parse(editLine);
    record.uuid = '00000000-0000-4000-8000-00000000beef';
    record.message.content[0].tool_use_id = 'toolu_appended';
    record.toolUseResult = { ...record.toolUseResult, oldString: 'beta', newString: 'gamma', originalFile: '# Notes\nbeta\n' };
    const appendedAt = Date.now();
    appendFileSync(transcript, `${JSON.stringify(record)}\n`);
    await eventually('the appended edit', async () => ((await titles()).length === 3 ? true : undefined), { intervalMs: 50, context: () => lsp.stderr() });
    const latency = Date.now() - appendedAt;
    // A liveness bound, not the speed target (the server checks every 500 ms; the bench measures it).
    assert.ok(latency < 5000, `ingested ${latency} ms after the append`);
  });

  it('keeps the why of a turn whose prompt and edit arrive in different reads', async () => {
    const record = (fields: Record<string, unknown>) => JSON.stringify({ sessionId: 'live-session', timestamp: new Date().toISOString(), cwd: root, isSidechain: false, parentUuid: null, ...fields });
    const live = path.join(folder, 'live-session.jsonl');
    appendFileSync(live, `${record({ type: 'user', uuid: 'p-1', message: { role: 'user', content: 'Add a delta line to the notes' } })}\n`);
    await eventually('the new session to be read', async () => (/live-session/.test(lsp.stderr()) || (await sessionsCount()) === 2 ? true : undefined), { timeoutMs: 15_000 });
    appendFileSync(live, `${record({ type: 'assistant', uuid: 'a-1', message: { id: 'msg-1', role: 'assistant', content: [{ type: 'text', text: 'I will append delta after gamma.' }] } })}\n`);
    await new Promise((r) => setTimeout(r, 1200)); // a separate read
    appendFileSync(live, `${record({
      type: 'user',
      uuid: 't-1',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu-1', content: 'ok' }] },
      toolUseResult: { filePath: path.join(root, 'notes.md'), oldString: 'gamma', newString: 'gamma\ndelta', originalFile: '# Notes\ngamma\n', structuredPatch: [], replaceAll: false, userModified: false },
    })}\n`);
    const memory = await eventually('the live edit', async () => {
      const result = await runEngram(['recall', '--file', 'notes.md', '--json', '--limit', '20'], { env, cwd: root });
      return (JSON.parse(result.stdout).results as { sessionId: string; why: string }[]).find((m) => m.sessionId === 'live-session');
    }, { timeoutMs: 15_000, context: () => lsp.stderr() });
    assert.equal(memory.why, 'I will append delta after gamma. (asked: "Add a delta line to the notes")');
  });

  it('survives garbage, a 50 MB line and a torn line, and ingests the good records around them', async () => {
    const record = (fields: Record<string, unknown>) => JSON.stringify({ sessionId: 'rough-session', timestamp: new Date().toISOString(), cwd: root, isSidechain: false, parentUuid: null, ...fields });
    const rough = path.join(folder, 'rough-session.jsonl');
    const huge = record({ type: 'user', uuid: 'huge-1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu-huge', content: 'x'.repeat(50 * 1024 * 1024) }] } });
    appendFileSync(rough, `\u0000\u00ff garbage {not json\n${huge}\n`);
    appendFileSync(rough, `${record({ type: 'user', uuid: 'rough-p', message: { role: 'user', content: 'Add an epsilon line to the notes' } })}\n`);
    appendFileSync(rough, `${record({
      type: 'user',
      uuid: 'rough-t',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu-rough', content: 'ok' }] },
      toolUseResult: { filePath: path.join(root, 'notes.md'), oldString: 'delta', newString: 'delta\nepsilon', originalFile: '# Notes\ngamma\ndelta\n', structuredPatch: [], replaceAll: false, userModified: false },
    })}\n{"type":"user","uuid":"torn-`);
    const memory = await eventually('the good edit after the bad lines', async () => {
      const result = await runEngram(['recall', '--file', 'notes.md', '--json', '--limit', '50'], { env, cwd: root });
      return (JSON.parse(result.stdout).results as { sessionId: string; why: string }[]).find((m) => m.sessionId === 'rough-session');
    }, { timeoutMs: 30_000, context: () => lsp.stderr() });
    assert.equal(memory.why, 'Asked: "Add an epsilon line to the notes"');
    const logged = ((lsp.received.get('window/logMessage') ?? []) as { message: string }[]).map((m) => m.message).join('\n');
    assert.match(logged, /rough-session\.jsonl: skipped 1 malformed lines/);
    const stats = (await lsp.connection.sendRequest('engram/stats', {})) as { projects: unknown[] };
    assert.equal(stats.projects.length, 1, 'the server still answers');
    assert.equal(lsp.process.exitCode, null);
  });

  const sessionsCount = async () => JSON.parse((await runEngram(['stats', '--json'], { env, cwd: root })).stdout).sessions as number;
});
