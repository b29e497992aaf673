import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type { NewMemory, PinLevel } from '../../server/src/memory/types';
import { openProject } from '../../server/src/project';
import { databasePathFor } from '../../server/src/paths/engramPaths';
import { runEngram } from '../support/engramProcess';
import { eventually } from '../support/eventually';
import { startLsp, type LspSession } from '../support/lspClient';
import { startMcp, type McpSession } from '../support/mcpClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

/**
 * Every action a user takes on a memory, through each entry that offers it — the editor's
 * engram/setPin request, the memory panel's engram/memoryAction, the MCP tools and the CLI — on
 * four copies of one store. Whatever the entry, the action must leave the same store: the same
 * pins, statuses, texts and usage counts, and the same refusals (actions/ holds the one rule).
 */

const ENTRIES = ['lsp', 'view', 'mcp', 'cli'] as const;
type Entry = (typeof ENTRIES)[number];

type Action =
  | { readonly type: 'pin'; readonly pin: PinLevel }
  | { readonly type: 'forget' }
  | { readonly type: 'restore' }
  | { readonly type: 'archive' }
  | { readonly type: 'edit'; readonly title: string; readonly why?: string }
  | { readonly type: 'share' }
  | { readonly type: 'unshare' };

/** Which entries offer which actions: the editor's request only pins; MCP has no archive, edit or share tool; the CLI has no edit. */
const OFFERS: Readonly<Record<Entry, readonly Action['type'][]>> = {
  lsp: ['pin'],
  view: ['pin', 'forget', 'restore', 'archive', 'edit', 'share', 'unshare'],
  mcp: ['pin', 'forget', 'restore'],
  cli: ['pin', 'forget', 'restore', 'archive', 'share', 'unshare'],
};

type Outcome = 'done' | 'refused';

interface Step {
  readonly seed: string;
  readonly action: Action;
  /** What each entry offering the action must answer (all 'done' unless said). */
  readonly expect?: Partial<Record<Entry, Outcome>>;
}

const base = { source: 'user' } as const;
const SEEDS: Readonly<Record<string, { memory: NewMemory; status?: 'archived' | 'forgotten' }>> = {
  note: { memory: { ...base, kind: 'note', title: 'Pool size is 10 connections per process.' } },
  softPinned: { memory: { ...base, kind: 'fact', title: 'Orders are soft-deleted.', pin: 'soft' } },
  forgottenNote: { memory: { ...base, kind: 'note', title: 'Retries live in callers (wrong).' }, status: 'forgotten' },
  candidate: { memory: { ...base, kind: 'constraint', title: 'Never build SQL strings by hand.', files: ['src/db.ts'], meta: { candidate: true } } },
  toForget: { memory: { ...base, kind: 'decision', title: 'Use tabs.', pin: 'hard' } },
  toRestore: { memory: { ...base, kind: 'decision', title: 'Customers are looked up by id.' }, status: 'archived' },
  toArchive: { memory: { ...base, kind: 'note', title: 'The staging database is slow on Mondays.' } },
  hardPin: { memory: { ...base, kind: 'constraint', title: 'All SQL goes through query().', pin: 'hard', files: ['src/db.ts'] } },
  toEdit: { memory: { ...base, kind: 'note', title: 'Cache TTL is 5 minutes.' } },
  toShare: { memory: { ...base, kind: 'decision', title: 'Money is stored in cents.' } },
  toUnshare: { memory: { ...base, kind: 'decision', title: 'Dates are UTC in the database.' } },
};

const STEPS: readonly Step[] = [
  { seed: 'note', action: { type: 'pin', pin: 'hard' } },
  // Again: already so, so nothing changes and nothing more is counted as use.
  { seed: 'note', action: { type: 'pin', pin: 'hard' } },
  { seed: 'softPinned', action: { type: 'pin', pin: 'none' } },
  { seed: 'forgottenNote', action: { type: 'pin', pin: 'hard' }, expect: { lsp: 'refused', view: 'refused', mcp: 'refused', cli: 'refused' } },
  // A person accepts a rule candidate by pinning it; an agent (MCP) cannot.
  { seed: 'candidate', action: { type: 'pin', pin: 'soft' }, expect: { mcp: 'refused' } },
  { seed: 'toForget', action: { type: 'forget' } },
  { seed: 'toRestore', action: { type: 'restore' } },
  { seed: 'toArchive', action: { type: 'archive' } },
  { seed: 'hardPin', action: { type: 'archive' }, expect: { view: 'refused', cli: 'refused' } },
  { seed: 'toEdit', action: { type: 'edit', title: '   ' }, expect: { view: 'refused' } },
  { seed: 'toEdit', action: { type: 'edit', title: 'Cache TTL is 10 minutes.', why: 'The price feed updates every 10 minutes.' } },
  { seed: 'toShare', action: { type: 'share' } },
  { seed: 'toUnshare', action: { type: 'share' } },
  { seed: 'toUnshare', action: { type: 'unshare' } },
];

/** A memory as compared across stores: no times, and the team mark without its random team id. */
interface Snapshot {
  readonly kind: string;
  readonly title: string;
  readonly body: string;
  readonly why: string | null;
  readonly pin: string;
  readonly status: string;
  readonly meta: Record<string, unknown>;
  readonly usage: { shown: number; acted: number } | null;
}

function snapshots(databaseFile: string): Map<string, Snapshot> {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare('SELECT m.id, m.kind, m.title, m.body, m.why, m.pin, m.status, m.meta, u.shown, u.acted FROM memories m LEFT JOIN memory_usage u ON u.memory_rowid = m.rowid')
      .all() as { id: string; kind: string; title: string; body: string; why: string | null; pin: string; status: string; meta: string; shown: number | null; acted: number | null }[];
    return new Map(
      rows.map((r) => {
        const { acceptedAt, team, ...meta } = JSON.parse(r.meta) as Record<string, unknown>;
        const normalized = { ...meta, ...(acceptedAt === undefined ? {} : { accepted: true }), ...(team === undefined ? {} : { team: { gone: (team as { gone?: boolean }).gone === true } }) };
        const usage = r.shown === null ? null : { shown: r.shown, acted: r.acted! };
        return [r.id, { kind: r.kind, title: r.title, body: r.body, why: r.why, pin: r.pin, status: r.status, meta: normalized, usage }];
      }),
    );
  } finally {
    db.close();
  }
}

describe('one rule per action: every entry leaves the same store', () => {
  const env = isolatedEnv();
  const work = tempDir('engram-actions-');
  const roots = Object.fromEntries(ENTRIES.map((entry) => [entry, path.join(work, entry)])) as Record<Entry, string>;
  const ids: Record<string, string> = {};
  let seeded: Map<string, Snapshot>;
  let lsp: LspSession;
  let mcp: McpSession;
  const outcomes: { step: Step; entry: Entry; outcome: Outcome; detail: string }[] = [];

  async function run(entry: Entry, id: string, action: Action): Promise<{ outcome: Outcome; detail: string }> {
    const root = roots[entry];
    const rejected = (error: Error) => ({ outcome: 'refused' as const, detail: error.message });
    switch (entry) {
      case 'lsp': {
        assert.equal(action.type, 'pin');
        const params = { uri: pathToFileURL(path.join(root, 'src', 'db.ts')).href, id, pin: (action as { pin: PinLevel }).pin };
        return lsp.connection.sendRequest('engram/setPin', params).then(() => ({ outcome: 'done', detail: '' }), rejected);
      }
      case 'view':
        return lsp.connection.sendRequest('engram/memoryAction', { projectRoot: root, id, action }).then(() => ({ outcome: 'done', detail: '' }), rejected);
      case 'mcp': {
        const [tool, args] =
          action.type === 'pin' ? (action.pin === 'none' ? ['unpin', { id }] : ['pin', { id, level: action.pin }]) : [action.type, { ids: [id] }];
        const result = await mcp.call(tool as string, args as Record<string, unknown>);
        const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
        return { outcome: result.isError ? 'refused' : 'done', detail: text };
      }
      case 'cli': {
        const args = action.type === 'pin' ? (action.pin === 'none' ? ['unpin', id] : ['pin', ...(action.pin === 'soft' ? ['--soft'] : []), id]) : [action.type, id];
        const result = await runEngram([...args, '--project', root], { env, cwd: root });
        return { outcome: result.code === 0 ? 'done' : 'refused', detail: result.stderr };
      }
    }
  }

  before(async () => {
    for (const root of Object.values(roots)) mkdirSync(path.join(root, 'src'), { recursive: true });
    const project = openProject(roots.lsp, env);
    try {
      for (const [name, seed] of Object.entries(SEEDS)) {
        const memory = project.store.add(seed.memory);
        if (seed.status) project.lifecycle.setStatus([memory.id], seed.status);
        ids[name] = memory.id;
      }
    } finally {
      project.close();
    }
    const original = databasePathFor(roots.lsp, env);
    assert.ok(!existsSync(`${original}-wal`), 'closed, so the copy holds every write');
    for (const entry of ENTRIES.filter((e) => e !== 'lsp')) {
      const copy = databasePathFor(roots[entry], env);
      mkdirSync(path.dirname(copy), { recursive: true });
      copyFileSync(original, copy);
    }
    seeded = snapshots(original);

    lsp = startLsp(env);
    const folders = [roots.lsp, roots.view].map((root) => ({ uri: pathToFileURL(root).href, name: path.basename(root) }));
    await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: folders[0]!.uri, workspaceFolders: folders, capabilities: {} });
    await lsp.connection.sendNotification('initialized', {});
    // Both folders' projects are open once the panel's requests find them.
    await eventually('both projects open in the memory server', async () => {
      for (const root of [roots.lsp, roots.view]) assert.ok(await lsp.connection.sendRequest('engram/memoryDetail', { projectRoot: root, id: ids.note }));
      return true;
    }, { timeoutMs: 30_000, context: () => lsp.stderr() });
    mcp = await startMcp({ env, project: roots.mcp });

    for (const step of STEPS) {
      for (const entry of ENTRIES) {
        if (!OFFERS[entry].includes(step.action.type)) continue;
        const { outcome, detail } = await run(entry, ids[step.seed]!, step.action);
        outcomes.push({ step, entry, outcome, detail });
      }
    }
  });
  after(async () => {
    await mcp?.close();
    await lsp?.close();
  });

  it('answers each step the same way through every entry that offers it (done, or refused with a reason)', () => {
    for (const { step, entry, outcome, detail } of outcomes) {
      const expected = step.expect?.[entry] ?? 'done';
      assert.equal(outcome, expected, `${entry} ${JSON.stringify(step.action)} on ${step.seed}: ${detail}`);
      if (outcome === 'refused') assert.match(detail, /restore it first|rule candidate|hard pins are never archived|needs a title/, `${entry} says why`);
    }
  });

  it('leaves every memory the same in the stores of the entries that did the action, and as it was in the others', () => {
    const stores = Object.fromEntries(ENTRIES.map((entry) => [entry, snapshots(databasePathFor(roots[entry], env))])) as Record<Entry, Map<string, Snapshot>>;
    for (const entry of ENTRIES) assert.equal(stores[entry].size, seeded.size, `${entry}: no memory added or lost`);
    for (const [name, id] of Object.entries(ids)) {
      const steps = STEPS.filter((s) => s.seed === name);
      const acted = ENTRIES.filter((entry) => steps.some((s) => OFFERS[entry].includes(s.action.type) && (s.expect?.[entry] ?? 'done') === 'done'));
      const untouched = ENTRIES.filter((entry) => !acted.includes(entry));
      for (const entry of acted.slice(1)) assert.deepEqual(stores[entry].get(id), stores[acted[0]!].get(id), `${name}: ${entry} and ${acted[0]} differ`);
      for (const entry of untouched) assert.deepEqual(stores[entry].get(id), seeded.get(id), `${name}: ${entry} refused or does not offer it, so it is unchanged`);
    }
  });

  it('applies each rule as it should: pins counted once, refusals change nothing, restores counted, acceptance recorded', () => {
    const store = snapshots(databasePathFor(roots.view, env));
    const of = (name: string) => store.get(ids[name]!)!;
    assert.deepEqual([of('note').pin, of('note').usage], ['hard', { shown: 0, acted: 1 }], 'pinned once, counted once though pinned twice');
    assert.deepEqual([of('softPinned').pin, of('softPinned').usage?.acted], ['none', 1]);
    assert.deepEqual(of('forgottenNote'), seeded.get(ids.forgottenNote!), 'a forgotten memory is not pinned');
    assert.deepEqual([of('candidate').pin, of('candidate').meta], ['soft', { accepted: true }], 'a person accepted the candidate');
    assert.deepEqual([of('toForget').status, of('toForget').pin, of('toForget').usage], ['forgotten', 'hard', null], 'forgetting is not use');
    assert.deepEqual([of('toRestore').status, of('toRestore').usage?.acted], ['active', 1]);
    assert.equal(of('toArchive').status, 'archived');
    assert.deepEqual(of('hardPin'), seeded.get(ids.hardPin!));
    assert.deepEqual([of('toEdit').title, of('toEdit').why, of('toEdit').usage?.acted], ['Cache TTL is 10 minutes.', 'The price feed updates every 10 minutes.', 1]);
    assert.deepEqual([of('toShare').meta, of('toShare').usage], [{ team: { gone: false } }, null], 'shared, not counted as use');
    assert.deepEqual(of('toUnshare').meta, {});
  });
});
