import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { openProject } from '../../server/src/project';
import { openDatabase } from '../../server/src/store/database';
import { databasePathFor } from '../../server/src/paths/engramPaths';
import type { InjectionEntry } from '../../contracts/protocol';
import type {
  AgentSessionSummary,
  MemoryActionResult,
  MemoryDiff,
  MemoryPanel,
  MemorySelection,
  TimelineEntry,
  TimelinePage,
  TimelineSearch,
  ViewMemory,
} from '../../contracts/viewProtocol';
import { REPO_ROOT } from '../support/engramProcess';
import { eventually } from '../support/eventually';
import { startLsp, type LspSession } from '../support/lspClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

type HoverResult = { contents: { value: string } } | null;

async function initialize(lsp: LspSession, root: string): Promise<void> {
  await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'demo' }], capabilities: {} });
  await lsp.connection.sendNotification('initialized', {});
}

const titles = (entries: readonly TimelineEntry[]) => entries.map((e) => (e.type === 'memory' ? e.memory.title : `compaction:${e.carriedOver}`));

describe('the memory panel and timeline requests, through the memory server', () => {
  const env = isolatedEnv();
  const work = tempDir('engram-views-');
  const root = path.join(work, 'shop');
  const dbFile = () => path.join(root, 'src', 'db.ts');
  const uri = () => pathToFileURL(dbFile()).href;
  let lsp: LspSession;
  let ids: string[];
  let text: string;
  let version = 1;
  const constraintId = () => ids[0]!;
  const decisionId = () => ids[2]!;

  const request = <T>(method: string, params: unknown) => lsp.connection.sendRequest(method, params) as Promise<T>;
  const panelAt = (line: number) => request<MemoryPanel | null>('engram/memoryPanel', { uri: uri(), position: { line, character: 2 } });
  const page = (filter: object, cursor: TimelinePage['nextCursor'] = null, limit = 50) => request<TimelinePage>('engram/timelinePage', { projectRoot: root, filter, cursor, limit });
  const act = (id: string, action: object) => request<MemoryActionResult>('engram/memoryAction', { projectRoot: root, id, action });
  const hover = (line: number) => request<HoverResult>('textDocument/hover', { textDocument: { uri: uri() }, position: { line, character: 10 } });

  before(async () => {
    const demo = await import(path.join(REPO_ROOT, 'scripts', 'lib', 'demo.mjs'));
    ids = demo.prepareDemo({ workspaceDir: root, engramHome: env.ENGRAM_HOME }).ids;
    text = readFileSync(dbFile(), 'utf8');
    lsp = startLsp(env);
    await initialize(lsp, root);
    await lsp.waitFor('window/logMessage', (p) => /Capture took a baseline/.test((p as { message: string }).message), 30_000);
    await lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(), languageId: 'typescript', version, text } });
  });
  after(async () => lsp?.close());

  it('shows the constraints that govern the cursor first, with where their code is now', async () => {
    const panel = (await panelAt(7))!;
    assert.equal(panel.path, 'src/db.ts');
    assert.equal(panel.symbol, 'query');
    assert.equal(panel.projectRoot, root);
    const [first] = panel.constraints;
    assert.equal(first!.memory.id, constraintId());
    assert.equal(first!.memory.pin, 'hard');
    assert.deepEqual({ atCursor: first!.atCursor, stale: first!.stale, lines: first!.lines }, { atCursor: true, stale: false, lines: { start: 4, end: 12 } });
    assert.match(first!.memory.place, /^lines 5–13 of src\/db\.ts$/);
    assert.ok(panel.memories.every((m) => m.memory.id !== constraintId()), 'constraints are not listed twice');
    assert.ok(panel.memories.every((m) => m.explanation.length > 0 && m.score > 0), 'every memory explains its score');
    assert.deepEqual(panel.sessions, []);
    assert.equal(panel.moreConstraints, 0);
    const elsewhere = (await panelAt(16))!;
    assert.equal(elsewhere.symbol, 'findCustomer');
    assert.equal(elsewhere.constraints[0]!.atCursor, false, 'the pinned code does not govern findCustomer');
  });

  it('answers null for a document outside every open project', async () => {
    const outside = pathToFileURL(path.join(work, 'elsewhere.ts')).href;
    assert.equal(await request('engram/memoryPanel', { uri: outside, position: { line: 0, character: 0 } }), null);
  });

  it('pages the timeline newest first, with filters, and a keyset cursor that never repeats or skips', async () => {
    const all = await page({});
    assert.equal(all.entries.length, 5);
    assert.equal(all.nextCursor, null);
    assert.deepEqual(all.projects, [root]);
    const updated = all.entries.map((e) => (e.type === 'memory' ? e.memory.updatedAt : 0));
    assert.deepEqual(updated, [...updated].sort((a, b) => b - a));

    assert.deepEqual(titles((await page({ kinds: ['constraint'] })).entries).sort(), [
      'All SQL goes through query() with bound parameters; never concatenate user input into SQL.',
      'Cancelling an order must never delete it: set status and save, so refunds can be audited.',
    ]);
    assert.equal((await page({ pinned: true })).entries.length, 2);
    assert.deepEqual(titles((await page({ path: 'src/' })).entries).sort(), ['All SQL goes through query() with bound parameters; never concatenate user input into SQL.', 'Pool size is 10 connections per process.']);
    assert.deepEqual(titles((await page({ path: 'src/pool.ts' })).entries), ['Pool size is 10 connections per process.']);
    assert.deepEqual(titles((await page({ symbol: 'OrderService' })).entries), ['Cancelling an order must never delete it: set status and save, so refunds can be audited.']);
    assert.equal((await page({ sources: ['claude'] })).entries.length, 0);

    const seen: string[] = [];
    let cursor: TimelinePage['nextCursor'] = null;
    for (let pages = 0; pages < 10; pages++) {
      const next = await page({}, cursor, 2);
      seen.push(...next.entries.map((e) => (e.type === 'memory' ? e.memory.id : '')));
      cursor = next.nextCursor;
      if (!cursor) break;
    }
    assert.deepEqual(seen, all.entries.map((e) => (e.type === 'memory' ? e.memory.id : '')));
  });

  it('searches with recall, best first, narrowed by the filter', async () => {
    const found = await request<TimelineSearch>('engram/timelineSearch', { projectRoot: root, query: 'pool connections', filter: {}, limit: 20 });
    assert.equal(found.results[0]!.memory.id, decisionId());
    assert.ok(found.results[0]!.explanation.length > 0);
    const narrowed = await request<TimelineSearch>('engram/timelineSearch', { projectRoot: root, query: 'pool connections', filter: { kinds: ['gotcha'] }, limit: 20 });
    assert.ok(narrowed.results.every((r) => r.memory.kind === 'gotcha'));
  });

  it('shows agent sessions, compaction points with what was carried over, and the injection log', async () => {
    // Written by another process (as hooks do), so the server must notice it on its own.
    const project = openProject(root, env);
    const t0 = Date.now() - 60_000;
    let made: string;
    try {
      project.sessions.upsert({ id: 'session-1', agent: 'claude-code', startedAt: t0, endedAt: null, branch: null, title: 'Tighten the pool', transcriptPath: null });
      made = project.store.add({ kind: 'decision', title: 'Release connections in finally blocks', source: 'claude', sessionId: 'session-1', files: ['src/pool.ts'] }, t0 + 1000).id;
      project.injections.log('session-1', 'session-start', [{ memoryId: constraintId(), tokens: 40 }], t0 + 500);
      project.sessions.compacted('session-1', 'auto', t0 + 2000);
      project.injections.forgetSince('session-1', 0);
      project.injections.log('session-1', 'session-start', [{ memoryId: constraintId(), tokens: 40 }, { memoryId: made, tokens: 20 }], t0 + 2001);
      project.injections.log('session-1', 'user-prompt-submit', [{ memoryId: decisionId(), tokens: 25 }], t0 + 3000);
    } finally {
      project.close();
    }
    await lsp.waitFor('engram/memoriesChanged', (p) => (p as { projectRoot: string }).projectRoot === root, 10_000);

    const timeline = await page({});
    const compaction = timeline.entries.find((e) => e.type === 'compaction');
    assert.deepEqual(compaction, { type: 'compaction', sessionId: 'session-1', trigger: 'auto', at: t0 + 2000, carriedOver: 2 });
    const order = titles(timeline.entries);
    assert.ok(order.indexOf('compaction:2') < order.indexOf('Release connections in finally blocks'), 'the compaction comes after (above) the memory made before it');
    assert.deepEqual(timeline.sessions, [{ id: 'session-1', agent: 'claude-code', title: 'Tighten the pool', startedAt: t0 }]);
    assert.equal((await page({ kinds: ['decision'] })).entries.some((e) => e.type === 'compaction'), false, 'a kind filter is about memories only');
    assert.deepEqual(titles((await page({ sessionId: 'session-1' })).entries), ['compaction:2', 'Release connections in finally blocks']);

    const { sessions } = await request<{ sessions: AgentSessionSummary[] }>('engram/agentSessions', { projectRoot: root });
    assert.equal(sessions.length, 1);
    assert.deepEqual(
      { id: sessions[0]!.id, memories: sessions[0]!.memories, given: sessions[0]!.given, tokens: sessions[0]!.tokens, compactions: sessions[0]!.compactions },
      { id: 'session-1', memories: 1, given: 3, tokens: 85, compactions: [{ trigger: 'auto', at: t0 + 2000, carriedOver: 2 }] },
    );
    const log = await request<InjectionEntry[]>('engram/injections', { projectRoot: root, sessionId: 'session-1' });
    assert.deepEqual(log.map((e) => [e.event, e.memory?.id, e.tokens]), [
      ['session-start', constraintId(), 40],
      ['session-start', made, 20],
      ['user-prompt-submit', decisionId(), 25],
    ]);
    const panel = (await request<MemoryPanel>('engram/memoryPanel', { uri: pathToFileURL(path.join(root, 'src', 'pool.ts')).href }))!;
    assert.deepEqual(panel.sessions.map((s) => [s.id, s.title, s.memories]), [['session-1', 'Tighten the pool', 1]]);
  });

  it('pins and unpins, forgets and restores — and hover follows', async () => {
    const unpinned = await act(constraintId(), { type: 'pin', pin: 'none' });
    assert.equal(unpinned.changed, true);
    assert.equal(unpinned.memory!.pin, 'none');
    await lsp.waitFor('engram/memoriesChanged');
    assert.match((await hover(7))!.contents.value, /\*\*Engram · constraint\*\*/);
    assert.equal((await act(constraintId(), { type: 'pin', pin: 'none' })).changed, false, 'already unpinned');
    assert.equal((await act(constraintId(), { type: 'pin', pin: 'hard' })).memory!.pin, 'hard');
    assert.match((await hover(7))!.contents.value, /hard-pinned constraint/);

    const forgotten = await act(constraintId(), { type: 'forget' });
    assert.deepEqual([forgotten.changed, forgotten.memory!.status], [true, 'forgotten']);
    assert.equal(await hover(7), null, 'a forgotten constraint governs nothing');
    assert.ok((await page({})).entries.every((e) => e.type !== 'memory' || e.memory.id !== constraintId()), 'not in the timeline');
    assert.ok((await page({ statuses: ['forgotten'] })).entries.some((e) => e.type === 'memory' && e.memory.id === constraintId()), 'but listed as forgotten');
    const restored = await act(constraintId(), { type: 'restore' });
    assert.deepEqual([restored.changed, restored.memory!.status], [true, 'active']);
    assert.match((await hover(7))!.contents.value, /All SQL goes through query/);

    await assert.rejects(act(constraintId(), { type: 'archive' }), /hard pins are never archived/);
    assert.equal((await act(decisionId(), { type: 'archive' })).memory!.status, 'archived');
    assert.equal((await act(decisionId(), { type: 'restore' })).memory!.status, 'active');
  });

  it('gives the memories a CodeLens or hover link names, for the panel to show alone', async () => {
    // What the editor passes to engram.showMemories: (uri, ids | what the lens counts, from).
    const lenses = await request<{ range: { start: { line: number } }; command: { title: string; command: string; arguments: [string, unknown, string] } }[]>('textDocument/codeLens', { textDocument: { uri: uri() } });
    const top = lenses.find((l) => l.range.start.line === 0 && l.command.title.startsWith('Engram:'))!;
    assert.equal(top.command.command, 'engram.showMemories');
    const [lensUri, counted, from] = top.command.arguments;
    assert.deepEqual([lensUri, counted, from], [uri(), { of: 'file' }, 'the CodeLens at the top of the file']);
    const fromLens = (await request<MemorySelection>('engram/memorySelection', { uri: lensUri, counted }))!;
    assert.deepEqual(fromLens.constraints.map((c) => c.memory.id), [constraintId()]);
    assert.deepEqual({ projectRoot: fromLens.projectRoot, path: fromLens.path, missing: fromLens.missing }, { projectRoot: root, path: 'src/db.ts', missing: 0 });
    const pinned = lenses.find((l) => l.command.title.includes('hard constraint'))!;
    assert.deepEqual(pinned.command.arguments, [uri(), [constraintId()], 'the CodeLens above the pinned code']);
    const onQuery = lenses.find((l) => l.command.arguments[2] === 'the CodeLens on query')!;
    assert.deepEqual([onQuery.command.title, onQuery.command.arguments[1]], ['1 constraint', { of: 'declaration', name: 'query' }]);
    const ofQuery = (await request<MemorySelection>('engram/memorySelection', { uri: uri(), counted: onQuery.command.arguments[1] }))!;
    assert.deepEqual([ofQuery.constraints.map((c) => c.memory.id), ofQuery.memories.length], [[constraintId()], 0]);
    const ofNothing = (await request<MemorySelection>('engram/memorySelection', { uri: uri(), counted: { of: 'declaration', name: 'findCustomer' } }))!;
    assert.deepEqual([ofNothing.constraints.length, ofNothing.memories.length, ofNothing.missing], [0, 0, 0]);

    const link = /\[Open in panel\]\(command:engram\.showMemories\?([^)]+)\)/.exec((await hover(7))!.contents.value);
    assert.deepEqual(JSON.parse(decodeURIComponent(link![1]!)), [uri(), [constraintId()], 'the hover on line 8']);

    // Any of the project's memories, in the order asked, constraints apart, each once; unknown and inactive ones counted.
    const selection = (await request<MemorySelection>('engram/memorySelection', { uri: uri(), ids: [decisionId(), constraintId(), 'm_00000000000000000000000000', decisionId()] }))!;
    assert.deepEqual(selection.memories.map((m) => [m.id, m.title, m.place]), [[decisionId(), 'Pool size is 10 connections per process.', 'src/pool.ts']]);
    assert.deepEqual(selection.constraints.map((c) => [c.memory.id, c.atCursor, c.stale, c.lines]), [[constraintId(), false, false, { start: 4, end: 12 }]]);
    assert.equal(selection.missing, 1);
    await act(decisionId(), { type: 'forget' });
    const afterForget = (await request<MemorySelection>('engram/memorySelection', { uri: uri(), ids: [decisionId(), constraintId()] }))!;
    assert.deepEqual([afterForget.memories.length, afterForget.constraints.length, afterForget.missing], [0, 1, 1], 'a forgotten memory leaves the selection');
    await act(decisionId(), { type: 'restore' });

    assert.equal(await request('engram/memorySelection', { uri: pathToFileURL(path.join(work, 'elsewhere.ts')).href, ids: [constraintId()] }), null);
    await assert.rejects(request('engram/memorySelection', { uri: uri(), ids: [] }), /ids/);
    await assert.rejects(request('engram/memorySelection', { uri: uri(), ids: [42] }), /ids\.0/);
    await assert.rejects(request('engram/memorySelection', { ids: [constraintId()] }), /uri/);
    await assert.rejects(request('engram/memorySelection', { uri: uri() }), /ids: give the ids or what a CodeLens counted/);
    await assert.rejects(request('engram/memorySelection', { uri: uri(), counted: { of: 'declaration' } }), /counted\.name/);
  });

  it('edits a memory (searchable by its new words) and copies it as the context hooks give', async () => {
    const edited = await act(decisionId(), { type: 'edit', title: 'Pool size is 12 connections per process.', body: 'Twelve, measured under the spring sale load.', why: 'Bursty traffic.' });
    assert.equal(edited.changed, true);
    assert.deepEqual([edited.memory!.title, edited.memory!.body, edited.memory!.why], ['Pool size is 12 connections per process.', 'Twelve, measured under the spring sale load.', 'Bursty traffic.']);
    const found = await request<TimelineSearch>('engram/timelineSearch', { projectRoot: root, query: 'spring sale', filter: {}, limit: 5 });
    assert.equal(found.results[0]!.memory.id, decisionId());
    await assert.rejects(act(decisionId(), { type: 'edit', title: '   ' }), /needs a title/);

    const copied = await act(constraintId(), { type: 'copy' });
    assert.equal(copied.changed, false);
    assert.equal(copied.text, '- [constraint, hard pin, from the user] «All SQL goes through query() with bound parameters; never concatenate user input into SQL.» (applies to lines 5–13 of src/db.ts) — why: «A 2025 pentest found SQL injection in a string-built report query.»');
    const detail = await request<ViewMemory>('engram/memoryDetail', { projectRoot: root, id: decisionId() });
    assert.equal(detail.body, 'Twelve, measured under the spring sale load.');
  });

  it('gives a saved change as before and after texts of the whole file, for the diff editor', async () => {
    const lines = text.split('\n');
    lines.splice(17, 0, '  // the first row, or null');
    const changed = lines.join('\n');
    writeFileSync(dbFile(), changed);
    await lsp.connection.sendNotification('textDocument/didChange', { textDocument: { uri: uri(), version: ++version }, contentChanges: [{ text: changed }] });
    await lsp.connection.sendNotification('textDocument/didSave', { textDocument: { uri: uri() } });
    const diffMemory = await eventually('the diff memory in the timeline', async () => {
      const entries = (await page({ kinds: ['diff'], path: 'src/db.ts' })).entries;
      return entries[0]?.type === 'memory' ? entries[0].memory : undefined;
    });
    assert.equal(diffMemory.title, 'Edited findCustomer (+1 −0) in src/db.ts');
    assert.deepEqual(diffMemory.change, { added: 1, removed: 0 });
    const diff = (await request<MemoryDiff>('engram/memoryDiff', { projectRoot: root, id: diffMemory.id }))!;
    assert.deepEqual({ path: diff.path, extent: diff.extent, truncated: diff.truncated }, { path: 'src/db.ts', extent: 'file', truncated: false });
    assert.equal(diff.before, text);
    assert.equal(diff.after, changed);
    await assert.rejects(request('engram/memoryDiff', { projectRoot: root, id: decisionId() }), /is a decision, not a diff memory/);
    await assert.rejects(act(diffMemory.id, { type: 'edit', title: 'x', body: 'not a patch' }), /body is its patch/);
    assert.deepEqual(await request('engram/locateSymbol', { projectRoot: root, path: 'src/db.ts', symbol: 'findCustomer' }), { line: 14 });
  });

  it('answers malformed requests with InvalidParams naming the field', async () => {
    await assert.rejects(request('engram/timelinePage', { filter: { kinds: ['nope'] }, cursor: null, limit: 10 }), /filter\.kinds\.0/);
    await assert.rejects(request('engram/timelinePage', { filter: {}, cursor: null, limit: 0 }), /limit/);
    await assert.rejects(request('engram/memoryAction', { projectRoot: root, id: decisionId(), action: { type: 'explode' } }), /action\.type/);
    await assert.rejects(request('engram/timelinePage', { projectRoot: '/nowhere', filter: {}, cursor: null, limit: 10 }), /not a project Engram has open/);
    assert.equal((await act('m-unknown', { type: 'forget' })).memory, null);
  });

  it('lists the constraints at the cursor and the first 20 others, and counts the rest', async () => {
    const writer = openProject(root, env);
    const added: string[] = [];
    try {
      for (let i = 0; i < 24; i++) added.push(writer.store.add({ kind: 'constraint', title: `db.ts rule ${i}`, source: 'user', files: ['src/db.ts'] }, Date.now() + i).id);
    } finally {
      writer.close();
    }
    const panel = await eventually('the panel with the new rules', async () => {
      const p = (await panelAt(7))!;
      return p.constraints.length + p.moreConstraints === 25 ? p : undefined;
    });
    assert.equal(panel.constraints[0]!.memory.id, constraintId(), 'the rule at the cursor first');
    assert.deepEqual(panel.constraints.slice(1).map((c) => c.memory.title), added.slice(0, 20).map((_, i) => `db.ts rule ${i}`), 'then the others, oldest first');
    assert.equal(panel.moreConstraints, 4);
    const governing = new Set([constraintId(), ...added]);
    assert.ok(panel.memories.length > 0 && panel.memories.every((m) => !governing.has(m.memory.id)), 'recall leaves out every rule of the file, listed or not');
    // The top CodeLens, and the panel's "Show all", show every one of them.
    const all = (await request<MemorySelection>('engram/memorySelection', { uri: uri(), counted: { of: 'file' } }))!;
    assert.deepEqual(new Set(all.constraints.map((c) => c.memory.id)), governing);
  });

  it('writes out five constraints in a hover and links to the rest', async () => {
    const writer = openProject(root, env);
    const added: string[] = [];
    try {
      for (let i = 0; i < 7; i++) added.push(writer.store.add({ kind: 'constraint', title: `Query rule ${i}`, source: 'user', files: ['src/db.ts'], symbols: ['query'] }, Date.now() + 100 + i).id);
    } finally {
      writer.close();
    }
    const shown = await eventually('the hover with the new rules', async () => {
      const value = (await hover(7))?.contents.value;
      return value?.includes('more constraints apply here') ? value : undefined;
    });
    // The hard pin first, then the oldest: four of the seven new rules.
    assert.ok(shown.includes('All SQL goes through query') && shown.indexOf('All SQL goes through query') < shown.indexOf('Query rule 0'), shown);
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((i) => shown.includes(`Query rule ${i}`)), [true, true, true, true, false, false, false]);
    const link = /3 more constraints apply here · \[Open them in panel\]\(command:engram\.showMemories\?([^)]+)\)/.exec(shown);
    assert.ok(link, shown);
    assert.deepEqual(JSON.parse(decodeURIComponent(link[1]!)), [uri(), added.slice(4), 'the hover on line 8']);
  });
});

describe('the timeline over 100,000 memories', { timeout: 180_000 }, () => {
  const env = isolatedEnv();
  const root = tempDir('engram-views-scale-');
  const TOTAL = 100_000;
  let lsp: LspSession;

  before(async () => {
    mkdirSync(path.join(root, '.git'));
    // Straight into the tables the timeline reads (no full-text index): seeding through the store would take minutes.
    const { db } = openDatabase(databasePathFor(root, env));
    const insert = db.prepare(`INSERT INTO memories (id, kind, title, body, source, created_at, updated_at, session_id) VALUES (@id, @kind, @title, '', @source, @at, @at, @session)`);
    const tag = db.prepare('INSERT INTO memory_files (memory_rowid, path) VALUES (?, ?)');
    const kinds = ['diff', 'decision', 'gotcha', 'note', 'fact'];
    const base = Date.now() - TOTAL * 60_000;
    db.transaction(() => {
      for (let i = 0; i < TOTAL; i++) {
        // Every tenth memory shares its timestamp with the next: the cursor must break ties by rowid.
        const at = base + (i - (i % 10 === 1 ? 1 : 0)) * 60_000;
        const { lastInsertRowid } = insert.run({ id: `m-${i}`, kind: kinds[i % kinds.length], title: `Memory ${i}`, source: i % 3 ? 'editor' : 'claude', at, session: i % 3 ? null : `s-${i % 50}` });
        tag.run(lastInsertRowid, `src/f${i % 400}.ts`);
      }
    })();
    db.close();
    lsp = startLsp(env);
    await initialize(lsp, root);
  });
  after(async () => lsp?.close());

  it('scrolls through every memory once, newest first, each page about as fast as the first', async () => {
    const seen = new Set<string>();
    let cursor: TimelinePage['nextCursor'] = null;
    let previous = Number.POSITIVE_INFINITY;
    const times: number[] = [];
    do {
      const started = performance.now();
      const next: TimelinePage = await lsp.connection.sendRequest('engram/timelinePage', { filter: {}, cursor, limit: 1000 });
      times.push(performance.now() - started);
      for (const entry of next.entries) {
        assert.equal(entry.type, 'memory');
        const memory = (entry as Extract<TimelineEntry, { type: 'memory' }>).memory;
        assert.ok(memory.updatedAt <= previous, 'newest first');
        previous = memory.updatedAt;
        seen.add(memory.id);
      }
      cursor = next.nextCursor;
    } while (cursor);
    assert.equal(seen.size, TOTAL);
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[sorted.length >> 1]!;
    const last = times[times.length - 1]!;
    // Keyset pages cost the same at any depth; an OFFSET would make the last page ~100× the first. Generous: shared CI machines.
    assert.ok(last < Math.max(10 * median, 500), `last page ${last.toFixed(0)} ms, median ${median.toFixed(0)} ms`);
  });

  it('filters 100,000 memories by folder, file and session without slowing down', async () => {
    for (const filter of [{ path: 'src' }, { path: 'src/f7.ts' }, { sessionId: 's-3' }, { kinds: ['gotcha'] }]) {
      const started = performance.now();
      const first: TimelinePage = await lsp.connection.sendRequest('engram/timelinePage', { filter, cursor: null, limit: 200 });
      const elapsed = performance.now() - started;
      assert.ok(first.entries.length > 0, JSON.stringify(filter));
      assert.ok(elapsed < 2000, `${JSON.stringify(filter)}: ${elapsed.toFixed(0)} ms`);
    }
  });
});
