// The real `engram mcp` stdio server, driven by the MCP SDK's own client: every tool, every kind of
// bad argument, both resources. The server runs from dist/ (`npm run build` first).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Memory } from '../../server/src/memory/types';
import { openProject, type Project } from '../../server/src/project';
import { openDatabase } from '../../server/src/store/database';
import { assertBuilt, runEngram } from '../support/engramProcess';
import { resultText, startMcp, type McpSession } from '../support/mcpClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const TOOLS = ['constraints', 'forget', 'get', 'pin', 'recall', 'remember', 'restore', 'stats', 'timeline', 'unpin'];

function demoProject(): string {
  const root = tempDir('engram-mcp-project-');
  mkdirSync(path.join(root, '.git'));
  mkdirSync(path.join(root, 'src'));
  writeFileSync(
    path.join(root, 'src', 'db.ts'),
    ['import { pool } from "./pool";', '', 'export function query(sql: string, params: unknown[]) {', '  return pool.run(sql, params);', '}', ''].join('\n'),
  );
  writeFileSync(path.join(root, 'src', 'orders.ts'), ['export class OrderService {', '  cancel(id: string) {', '    return id;', '  }', '}', ''].join('\n'));
  return root;
}

interface MemoryOut {
  id: string;
  kind: string;
  title: string;
  pin: string;
  status: string;
  source: string;
  files: string[];
  symbols: string[];
  anchor?: { path: string; startLine: number; endLine: number; stale: boolean };
  glob?: string;
}

/** Reads through a second connection, as another process would. */
function withProject<T>(root: string, env: NodeJS.ProcessEnv, use: (project: Project) => T): T {
  const project = openProject(root, env);
  try {
    return use(project);
  } finally {
    project.close();
  }
}

function usageOf(project: Project, id: string): { shown: number; acted: number } {
  const { db } = openDatabase(project.databaseFile);
  try {
    const row = db.prepare('SELECT u.shown, u.acted FROM memory_usage u JOIN memories m ON m.rowid = u.memory_rowid WHERE m.id = ?').get(id) as { shown: number; acted: number } | undefined;
    return row ?? { shown: 0, acted: 0 };
  } finally {
    db.close();
  }
}

describe('engram mcp (stdio, SDK client)', () => {
  // Made here, not in a hook: tempDir removes its folder when the test or suite that made it ends.
  const env = isolatedEnv();
  const root = demoProject();
  let mcp: McpSession;

  before(async () => {
    assertBuilt();
    mcp = await startMcp({ env, project: root });
  });

  after(async () => {
    await mcp?.close();
  });

  async function ok(name: string, args: Record<string, unknown> = {}) {
    const result = await mcp.call(name, args);
    assert.notEqual(result.isError, true, `${name} failed: ${resultText(result)}`);
    assert.ok(result.structuredContent, `${name} returned no structured content`);
    return { text: resultText(result), data: result.structuredContent as Record<string, unknown> };
  }

  async function fails(name: string, args: Record<string, unknown>, message: RegExp) {
    const result = await mcp.call(name, args);
    assert.equal(result.isError, true, `${name} ${JSON.stringify(args).slice(0, 200)} should fail, got: ${resultText(result)}`);
    assert.match(resultText(result), message);
  }

  it('lists its ten tools, each with a description for a model and a strict input schema', async () => {
    const { tools } = await mcp.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 100, `${tool.name}: description too thin`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal((tool.inputSchema as { additionalProperties?: boolean }).additionalProperties, false, `${tool.name}: unknown arguments must be refused`);
      assert.ok(tool.outputSchema, `${tool.name}: no output schema`);
    }
    const remember = tools.find((t) => t.name === 'remember')!;
    assert.deepEqual((remember.inputSchema as { required?: string[] }).required?.sort(), ['kind', 'text']);
    const info = mcp.client.getServerVersion();
    assert.equal(info?.name, 'engram');
    assert.match(mcp.client.getInstructions() ?? '', /constraints/);
  });

  it('lists the constraints resource and the memory template', async () => {
    const { resources } = await mcp.client.listResources();
    assert.deepEqual(resources.map((r) => r.uri), ['engram://constraints']);
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['engram://memory/{id}']);
  });

  it('remembers a decision as an mcp memory tied to files and symbols, and returns it', async () => {
    const { text, data } = await ok('remember', {
      text: 'Orders are cancelled through OrderService.cancel only.\nDirect UPDATEs skip the refund.',
      kind: 'decision',
      why: 'refunds are issued in cancel',
      files: [path.join(root, 'src', 'orders.ts')],
      symbols: ['OrderService.cancel'],
    });
    const memory = data.memory as MemoryOut;
    assert.equal(data.created, true);
    assert.match(memory.id, /^m_[0-9A-Z]{26}$/);
    assert.equal(memory.kind, 'decision');
    assert.equal(memory.source, 'mcp');
    assert.equal(memory.title, 'Orders are cancelled through OrderService.cancel only.');
    assert.deepEqual(memory.files, ['src/orders.ts']);
    assert.deepEqual(memory.symbols, ['OrderService.cancel']);
    assert.match(text, new RegExp(`Remembered ${memory.id} \\[decision\\]`));
    const stored = withProject(root, env, (p) => p.store.get(memory.id));
    assert.equal(stored?.source, 'mcp');
    assert.equal(stored?.why, 'refunds are issued in cancel');
  });

  it('returns the existing memory instead of storing a near-identical one', async () => {
    const first = (await ok('remember', { text: 'The cache TTL is 5 minutes.', kind: 'fact', files: ['src/db.ts'] })).data;
    const again = await ok('remember', { text: '  the cache ttl is 5 minutes ', kind: 'fact', files: ['./src/db.ts'] });
    assert.equal(again.data.created, false);
    assert.equal((again.data.memory as MemoryOut).id, (first.memory as MemoryOut).id);
    assert.match(again.text, /Already remembered/);
    // Another kind, or other files, is another memory.
    const asNote = await ok('remember', { text: 'The cache TTL is 5 minutes.', kind: 'note', files: ['src/db.ts'] });
    assert.equal(asNote.data.created, true);
    const elsewhere = await ok('remember', { text: 'The cache TTL is 5 minutes.', kind: 'fact', files: ['src/orders.ts'] });
    assert.equal(elsewhere.data.created, true);
    const count = withProject(root, env, (p) => [...p.store.all()].filter((m) => m.title === 'The cache TTL is 5 minutes.').length);
    assert.equal(count, 3);
  });

  it('pins a remembered constraint hard to lines of a file, and a glob constraint soft', async () => {
    const lines = (await ok('remember', { text: 'Always pass SQL parameters, never concatenate', kind: 'constraint', files: ['src/db.ts'], lines: { start: 3, end: 5 }, pin: 'hard' })).data.memory as MemoryOut;
    assert.equal(lines.pin, 'hard');
    assert.deepEqual(lines.anchor, { path: 'src/db.ts', startLine: 3, endLine: 5, stale: false });
    const glob = (await ok('remember', { text: 'Sources are TypeScript, strict mode', kind: 'constraint', glob: 'src/**/*.ts', pin: 'soft' })).data.memory as MemoryOut;
    assert.equal(glob.pin, 'soft');
    assert.equal(glob.glob, 'src/**/*.ts');
    const importance = withProject(root, env, (p) => [p.store.get(lines.id)!.importance, p.store.get(glob.id)!.importance]);
    assert.deepEqual(importance, [1, 0.8]);
  });

  it('recalls by query, file and line; what it gives the agent counts as shown', async () => {
    const { text, data } = await ok('recall', { query: 'how are orders cancelled', file: 'src/orders.ts', line: 3 });
    const results = data.results as (MemoryOut & { score: number; reasons: string[] })[];
    assert.equal(data.symbol, 'OrderService.cancel');
    assert.equal(results[0]?.title, 'Orders are cancelled through OrderService.cancel only.');
    assert.ok(results[0]!.score > 0);
    assert.ok(results[0]!.reasons.includes('about OrderService.cancel'), results[0]!.reasons.join(', '));
    assert.match(text, /best first \(symbol at the line: OrderService\.cancel\)/);
    assert.match(text, /why: refunds are issued in cancel/);
    const limited = await ok('recall', { query: 'cache TTL', limit: 1, kinds: ['fact'] });
    assert.equal((limited.data.results as MemoryOut[]).length, 1);
    assert.equal((limited.data.results as MemoryOut[])[0]!.kind, 'fact');
    const shown = withProject(root, env, (p) => usageOf(p, results[0]!.id));
    assert.equal(shown.shown, 1);
    const nothing = await ok('recall', { query: 'kubernetes helm chart' });
    assert.deepEqual(nothing.data.results, []);
    assert.match(nothing.text, /No memories match/);
  });

  it('lists the constraints governing a file, hard pins first, and flags stale pinned code', async () => {
    const stale = (await ok('remember', { text: 'Keep the import of pool first', kind: 'constraint', files: ['src/db.ts'], lines: { start: 1, end: 1 } })).data.memory as MemoryOut;
    withProject(root, env, (p) => {
      const memory = p.store.get(stale.id)!;
      p.store.update({ ...memory, anchor: { ...memory.anchor!, stale: true } });
    });
    const projectWide = (await ok('remember', { text: 'Never log customer emails', kind: 'constraint' })).data.memory as MemoryOut;
    const { text, data } = await ok('constraints', { file: 'src/db.ts' });
    const constraints = data.constraints as (MemoryOut & { stale: boolean })[];
    const titles = constraints.map((c) => c.title);
    assert.equal(titles[0], 'Always pass SQL parameters, never concatenate');
    assert.ok(titles.includes('Sources are TypeScript, strict mode'), 'the glob constraint applies');
    assert.ok(titles.includes(projectWide.title), 'the project-wide constraint applies');
    assert.equal(constraints.find((c) => c.id === stale.id)?.stale, true);
    assert.match(text, /stale: the code it was pinned to is gone/);
    assert.match(text, /1 of them is stale/);
    const forSymbol = await ok('constraints', { symbol: 'OrderService.cancel' });
    assert.deepEqual((forSymbol.data.constraints as MemoryOut[]).map((c) => c.title), [projectWide.title]);
    const all = await ok('constraints', {});
    assert.equal((all.data.constraints as MemoryOut[]).length, 4);
  });

  it('pins and unpins a memory; both count as acting on it', async () => {
    const note = (await ok('remember', { text: 'Staging deploys from the release branch', kind: 'note' })).data.memory as MemoryOut;
    const pinned = await ok('pin', { id: note.id, level: 'soft' });
    assert.equal((pinned.data.memory as MemoryOut).pin, 'soft');
    assert.equal(pinned.data.changed, true);
    assert.equal(((await ok('pin', { id: note.id })).data.memory as MemoryOut).pin, 'hard');
    const unpinned = await ok('unpin', { id: note.id });
    assert.equal((unpinned.data.memory as MemoryOut).pin, 'none');
    assert.equal((await ok('unpin', { id: note.id })).data.changed, false);
    assert.equal(withProject(root, env, (p) => usageOf(p, note.id)).acted, 3);
  });

  it('forgets softly and says how to undo; restore brings the memory back', async () => {
    const wrong = (await ok('remember', { text: 'The queue is Redis-backed', kind: 'fact' })).data.memory as MemoryOut;
    const forgotten = await ok('forget', { ids: [wrong.id] });
    assert.match(forgotten.text, new RegExp(`Forgot ${wrong.id}`));
    assert.match(forgotten.text, new RegExp(`Undo: call restore with ids \\["${wrong.id}"\\], or run: engram restore ${wrong.id}`));
    assert.equal(withProject(root, env, (p) => p.store.get(wrong.id)?.status), 'forgotten');
    const recalled = await ok('recall', { query: 'queue Redis' });
    assert.ok(!(recalled.data.results as MemoryOut[]).some((m) => m.id === wrong.id), 'a forgotten memory is not recalled');
    await fails('pin', { id: wrong.id }, /is forgotten; restore it first/);
    const restored = await ok('restore', { ids: [wrong.id] });
    assert.match(restored.text, new RegExp(`Restored ${wrong.id} .* \\(was forgotten\\)`));
    assert.equal(withProject(root, env, (p) => p.store.get(wrong.id)?.status), 'active');
  });

  it('gets a memory in full: a diff body, its links, and counts it as acted on', async () => {
    const [diff, later] = withProject(root, env, (p) => {
      const first = p.store.add({ kind: 'diff', title: 'query: pass params', body: '@@ -1 +1 @@\n-old\n+new', source: 'editor', files: ['src/db.ts'] });
      const second = p.store.add({ kind: 'diff', title: 'query: rename', body: '@@ -2 +2 @@\n-a\n+b', source: 'claude', files: ['src/db.ts'] });
      p.store.link(second.id, first.id, 'revises');
      return [first, second];
    });
    const { text, data } = await ok('get', { id: diff!.id });
    const memory = data.memory as MemoryOut & { body: string; links: { id: string; relation: string; direction: string; title: string }[] };
    assert.equal(memory.body, '@@ -1 +1 @@\n-old\n+new');
    assert.deepEqual(memory.links, [{ id: later!.id, relation: 'revises', direction: 'to', kind: 'diff', title: 'query: rename', status: 'active' }]);
    assert.match(text, /```diff\n@@ -1 \+1 @@\n-old\n\+new\n```/);
    assert.match(text, new RegExp(`revised by ${later!.id} \\[diff\\] query: rename`));
    assert.equal(withProject(root, env, (p) => usageOf(p, diff!.id)).acted, 1);
  });

  it('shows the timeline newest first, filtered by since, file, session and limit', async () => {
    const old = withProject(root, env, (p) => {
      const memory = p.store.add({ kind: 'note', title: 'from a session', source: 'claude', sessionId: 'session-42', files: ['src/orders.ts'] }, Date.now() - 3 * 86_400_000);
      return memory;
    });
    const recent = await ok('timeline', { limit: 3 });
    const memories = recent.data.memories as (MemoryOut & { updatedAt: string })[];
    assert.equal(memories.length, 3);
    assert.ok(memories[0]!.updatedAt >= memories[1]!.updatedAt && memories[1]!.updatedAt >= memories[2]!.updatedAt);
    const sinceDay = await ok('timeline', { since: '1d', limit: 200 });
    assert.ok(!(sinceDay.data.memories as MemoryOut[]).some((m) => m.id === old.id), 'a 3-day-old memory is not in the last day');
    const bySession = await ok('timeline', { session: 'session-42' });
    assert.deepEqual((bySession.data.memories as MemoryOut[]).map((m) => m.id), [old.id]);
    const byFile = await ok('timeline', { file: 'src/orders.ts', since: new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10) });
    assert.deepEqual((byFile.data.memories as MemoryOut[]).map((m) => m.title).sort(), ['Orders are cancelled through OrderService.cancel only.', 'The cache TTL is 5 minutes.', 'from a session'].sort());
    assert.match(byFile.text, /about src\/orders\.ts, newest first/);
  });

  it('reports stats', async () => {
    const { text, data } = await ok('stats');
    const counts = withProject(root, env, (p) => p.store.counts());
    assert.equal(data.total, counts.total);
    assert.deepEqual(data.byKind, counts.byKind);
    assert.equal(data.project, root);
    assert.match(text, new RegExp(`${counts.byStatus.active} active memories`));
  });

  it('reads engram://constraints and engram://memory/{id}', async () => {
    const constraints = await mcp.client.readResource({ uri: 'engram://constraints' });
    const markdown = (constraints.contents[0] as { text: string }).text;
    assert.match(markdown, /## Hard-pinned: must always hold\n- m_\w+ \[constraint, hard pin\] Always pass SQL parameters/);
    assert.match(markdown, /## Soft-pinned\n- m_\w+ \[constraint, soft pin\] Sources are TypeScript/);
    const decision = withProject(root, env, (p) => [...p.store.all()].find((m) => m.kind === 'decision')!);
    const memory = await mcp.client.readResource({ uri: `engram://memory/${decision.id}` });
    assert.equal(memory.contents[0]?.mimeType, 'text/markdown');
    assert.match((memory.contents[0] as { text: string }).text, /Direct UPDATEs skip the refund\./);
    await assert.rejects(mcp.client.readResource({ uri: 'engram://memory/m_00000000000000000000000000' }), (error: unknown) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, -32002);
      assert.match(error.message, /no memory with id m_00000000000000000000000000/);
      return true;
    });
  });

  it('answers each bad argument with an isError result, writes nothing, and keeps serving', async () => {
    const before = withProject(root, env, (p) => p.store.counts().total);
    await fails('remember', { text: 42, kind: 'note' }, /expected string, received number at text/);
    await fails('remember', { text: 'x', kind: 'opinion' }, /kind must be one of decision, constraint, gotcha, fact, note/);
    await fails('remember', { text: 'x'.repeat(1024 * 1024), kind: 'note' }, /text is limited to 16,000 characters/);
    await fails('remember', { text: '   ', kind: 'note' }, /text is empty/);
    await fails('remember', { kind: 'note' }, /text/);
    await fails('remember', { text: 'x', kind: 'note', colour: 'red' }, /colour/);
    await fails('remember', { text: 'x', kind: 'note', files: ['/etc/passwd'] }, /not a file inside the project/);
    await fails('remember', { text: 'x', kind: 'note', files: ['../outside.ts'] }, /not a file inside the project/);
    await fails('remember', { text: 'x', kind: 'note', files: ['src/db.ts', 'src/orders.ts'], lines: { start: 1, end: 2 } }, /`lines` needs exactly one file/);
    await fails('remember', { text: 'x', kind: 'note', files: ['src/db.ts'], lines: { start: 50, end: 60 } }, /lines 50-60 are outside src\/db\.ts, which has 6 lines/);
    await fails('remember', { text: 'x', kind: 'note', files: ['src/missing.ts'], lines: { start: 1, end: 1 } }, /cannot read src\/missing\.ts.*ENOENT/);
    await fails('remember', { text: 'x', kind: 'constraint', glob: '../**' }, /must be relative to the project/);
    await fails('remember', { text: 'x', kind: 'constraint', glob: 'src/**', files: ['src/db.ts'] }, /either `files` or `glob`, not both/);
    await fails('remember', { text: 'x', kind: 'note', pin: 'forever' }, /pin must be hard or soft/);
    await fails('recall', { limit: 'ten' }, /expected number/);
    await fails('recall', { line: 3 }, /`line` needs `file`/);
    await fails('recall', { file: 'src/db.ts', line: 400 }, /line 400 is past the end of src\/db\.ts/);
    await fails('recall', { kinds: ['rumour'] }, /kinds are diff, constraint/);
    await fails('get', { id: 'm_00000000000000000000000000' }, /no memory with id m_00000000000000000000000000/);
    await fails('get', {}, /id/);
    await fails('pin', { id: 'nope' }, /no memory with id nope/);
    await fails('pin', { id: 'nope', level: 'medium' }, /level must be hard or soft/);
    await fails('unpin', { id: 'nope' }, /no memory with id nope/);
    await fails('forget', { ids: [] }, /give at least one id/);
    await fails('forget', { ids: ['nope', 'also-nope'] }, /no memory with id nope, also-nope/);
    await fails('restore', { ids: 'nope' }, /expected array/);
    await fails('timeline', { since: 'last tuesday' }, /since must be an ISO date or time/);
    await fails('timeline', { limit: 0 }, /limit/);
    await fails('constraints', { file: 42 }, /expected string/);
    await fails('stats', { verbose: true }, /verbose/);
    assert.equal(withProject(root, env, (p) => p.store.counts().total), before, 'a refused call wrote something');

    const { data } = await ok('stats');
    assert.equal(data.total, before);
    assert.deepEqual(mcp.transportErrors, [], 'stdout carried something that is not a protocol message');
    assert.doesNotMatch(mcp.stderr(), /failed|unexpected/i);
  });

  it('is in the CLI: `engram recall` finds what MCP remembered', async () => {
    const { code, stdout, stderr } = await runEngram(['recall', '--query', 'orders cancelled refund', '--json'], { env, cwd: root });
    assert.equal(code, 0, stderr);
    const { results } = JSON.parse(stdout) as { results: Memory[] };
    assert.equal(results[0]?.title, 'Orders are cancelled through OrderService.cancel only.');
    assert.equal(results[0]?.source, 'mcp');
  });
});

describe('engram mcp, started by an agent', () => {
  it("serves Claude Code's project (CLAUDE_PROJECT_DIR) and tags what it remembers and gives with the session", async () => {
    assertBuilt();
    const root = demoProject();
    const env = isolatedEnv({ CLAUDE_PROJECT_DIR: root, CLAUDE_CODE_SESSION_ID: 'session-7' });
    const mcp = await startMcp({ env, cwd: tempDir('engram-elsewhere-') });
    try {
      const remembered = await mcp.call('remember', { text: 'Customer ids are UUIDs', kind: 'fact', files: ['src/db.ts'] });
      const id = (remembered.structuredContent as { memory: { id: string } }).memory.id;
      await mcp.call('recall', { query: 'customer ids' });
      const [memory, given] = withProject(root, env, (p) => [p.store.get(id), p.injections.forSession('session-7')] as const);
      assert.equal(memory?.sessionId, 'session-7');
      assert.deepEqual(given.map((g) => [g.memoryId, g.event]), [[id, 'mcp-recall']]);
      const timeline = await mcp.call('timeline', { session: 'session-7' });
      assert.deepEqual((timeline.structuredContent as { memories: { id: string }[] }).memories.map((m) => m.id), [id]);
    } finally {
      await mcp.close();
    }
  });

  it('serves the project of its working directory when --project is not given, and exits when stdin ends', async () => {
    assertBuilt();
    const env = isolatedEnv({ CLAUDE_PROJECT_DIR: undefined, CLAUDE_CODE_SESSION_ID: undefined });
    const root = demoProject();
    const result = await runEngram(['mcp'], {
      env,
      cwd: path.join(root, 'src'),
      stdin: `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } })}\n`,
      timeoutMs: 15_000,
    });
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines.length, 1, `stdout must carry only protocol messages: ${result.stdout}`);
    const response = JSON.parse(lines[0]!) as { id: number; result: { serverInfo: { name: string } } };
    assert.equal(response.result.serverInfo.name, 'engram');
    assert.match(result.stderr, new RegExp(`serving the memory of ${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(result.stderr, /stdin ended; closing/);
  });
});
