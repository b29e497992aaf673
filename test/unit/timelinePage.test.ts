import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Memory, NewMemory } from '../../server/src/memory/types';
import { openDatabase } from '../../server/src/store/database';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { TimelineStore, type TimelineQuery, type TimelineRow } from '../../server/src/store/timelineStore';
import { tempDir } from '../support/tempDirs';

/**
 * Enough memories that a filter names more than the timeline reads by rowid (5,000), so both ways
 * a page is read — the walk down the updated_at index and the sort of the named few — are asked.
 */
const MEMORIES = 7_500;
const FILES = ['src/a.ts', 'src/b.ts', 'src/lib/c.ts', 'docs/d.md'];
const SYMBOLS = ['Cart', 'Cart.add', 'Cart.remove', 'total', 'Cartography'];

function memoryOf(i: number): NewMemory {
  const anchored = i % 37 === 0;
  return {
    kind: anchored ? 'constraint' : i % 5 === 0 ? 'decision' : 'diff',
    title: `Memory ${i}`,
    source: i % 3 === 0 ? 'claude' : 'editor',
    // Sessions of ~200 memories, in time order as an agent makes them; one session takes most of the rest.
    sessionId: i % 2 === 0 ? `s${Math.floor(i / 400)}` : i % 7 === 0 ? 'big' : null,
    pin: anchored ? 'hard' : 'none',
    // src/a.ts on most memories (past 5,000): a filter the walk answers, as it finds the file's sessions.
    files: i % 10 === 9 ? [] : i % 13 === 0 ? [FILES[2]!, FILES[3]!] : [FILES[i % 8 === 0 ? 1 : 0]!],
    symbols: i % 11 === 0 ? [SYMBOLS[i % 5]!] : i % 17 === 0 ? [SYMBOLS[1]!, SYMBOLS[2]!] : [],
    anchor: anchored ? { path: FILES[3]!, range: { startLine: 1, startCharacter: 0, endLine: 2, endCharacter: 0 }, contentHash: 'h', contextBefore: '', contextAfter: '' } : null,
  };
}

/** What a page should hold, asked of every memory. */
function expected(all: readonly Memory[], rowids: ReadonlyMap<string, number>, q: TimelineQuery): TimelineRow[] {
  const under = (value: string, name: string) => value === name || value.startsWith(`${name.replace(/\/+$/, '')}/`);
  return all
    .filter((m) => q.statuses.includes(m.status))
    .filter((m) => !q.kinds || q.kinds.includes(m.kind))
    .filter((m) => !q.sessionId || m.sessionId === q.sessionId)
    .filter((m) => !q.path || m.files.some((f) => under(f, q.path!)) || (m.anchor !== null && under(m.anchor.path, q.path)))
    .filter((m) => !q.symbol || m.symbols.some((s) => s === q.symbol || s.startsWith(`${q.symbol}.`)))
    .map((m) => ({ rowid: rowids.get(m.id)!, updatedAt: m.updatedAt }))
    .filter((r) => !q.before || r.updatedAt < q.before.updatedAt || (r.updatedAt === q.before.updatedAt && r.rowid < q.before.rowid))
    .sort((a, b) => b.updatedAt - a.updatedAt || b.rowid - a.rowid)
    .slice(0, q.limit);
}

describe('timeline pages', () => {
  const db = openDatabase(path.join(tempDir(), 'memory.db')).db;
  const store = new MemoryStore(db);
  const memories: Memory[] = [];
  // Times out of rowid order, some equal: the cursor's tie-break by rowid matters.
  db.transaction(() => {
    for (let i = 0; i < MEMORIES; i++) memories.push(store.add(memoryOf(i), 1_000_000 + ((i * 7919) % 3001) * 10));
  })();
  for (const m of memories.filter((_, i) => i % 19 === 0)) store.update({ ...m, status: 'archived' });
  const all = memories.map((m) => store.get(m.id)!);
  const rowids = new Map((db.prepare('SELECT id, rowid FROM memories').raw().all() as [string, number][]).map(([id, rowid]) => [id, rowid]));
  const timeline = new TimelineStore(db);

  const queries: Omit<TimelineQuery, 'limit' | 'statuses'>[] = [
    {},
    { sessionId: 's3' },
    { sessionId: 'big' },
    { sessionId: 'none such' },
    { symbol: 'Cart' },
    { symbol: 'total' },
    { path: 'src/a.ts' },
    { path: 'src' },
    { path: 'src/' },
    { path: 'docs' },
    { path: 'src/lib/c.ts', kinds: ['diff'] },
    { sessionId: 's3', symbol: 'Cart', path: 'src' },
    { sessionId: 'big', path: 'src/a.ts' },
    { symbol: 'Cart.add', kinds: ['decision', 'diff'] },
  ];

  it('lists agent sessions by their last change, with their memories that are not forgotten', () => {
    const forgotten = all.find((m) => m.sessionId === 's0')!;
    store.update({ ...forgotten, status: 'forgotten', updatedAt: 9_000_000 });
    const now = memories.map((m) => store.get(m.id)!);
    const bySession = new Map<string, { memories: number; lastAt: number }>();
    for (const m of now) {
      if (!m.sessionId) continue;
      const s = bySession.get(m.sessionId) ?? { memories: 0, lastAt: 0 };
      bySession.set(m.sessionId, { memories: s.memories + (m.status === 'forgotten' ? 0 : 1), lastAt: Math.max(s.lastAt, m.updatedAt) });
    }
    const expectedSessions = [...bySession].sort(([, a], [, b]) => b.lastAt - a.lastAt).slice(0, 5);
    const listed = timeline.agentSessions(5);
    assert.deepEqual(listed.map((s) => [s.id, s.memories, s.lastAt]), expectedSessions.map(([id, s]) => [id, s.memories, s.lastAt]));
    assert.equal(listed[0]!.id, 's0', 'a forgotten memory still dates its session');
    assert.equal(timeline.agentSessions(100).length, bySession.size);
    store.update({ ...store.get(forgotten.id)!, status: 'active', updatedAt: forgotten.updatedAt });
  });

  it('lists the agent sessions that touched a file, by their last change there, whichever way they are found', () => {
    const touching = (file: string) => {
      const bySession = new Map<string, { memories: number; lastAt: number }>();
      for (const m of memories.map((x) => store.get(x.id)!)) {
        if (!m.sessionId || m.status === 'forgotten' || !(m.files.includes(file) || m.anchor?.path === file)) continue;
        const s = bySession.get(m.sessionId) ?? { memories: 0, lastAt: 0 };
        bySession.set(m.sessionId, { memories: s.memories + 1, lastAt: Math.max(s.lastAt, m.updatedAt) });
      }
      return [...bySession].map(([id, s]) => ({ id, ...s })).sort((a, b) => b.lastAt - a.lastAt || a.id.localeCompare(b.id));
    };
    const sorted = (rows: readonly { id: string; memories: number; lastAt: number }[]) => rows.map(({ id, memories: n, lastAt }) => ({ id, memories: n, lastAt })).sort((a, b) => b.lastAt - a.lastAt || a.id.localeCompare(b.id));
    // A forgotten memory, the newest of all, neither dates nor counts its session.
    const forgotten = memories.find((m) => m.sessionId === 's7' && m.files.includes('src/a.ts'))!;
    store.update({ ...forgotten, status: 'forgotten', updatedAt: 9_500_000 });
    // src/a.ts has more than 5,000 memories (walked newest first), docs/d.md a few hundred (grouped).
    for (const file of ['src/a.ts', 'docs/d.md', 'src/lib/c.ts']) {
      const all = touching(file);
      assert.ok(all.length > 3, file);
      assert.deepEqual(sorted(timeline.sessionsTouching(file, 100)), all, file);
      const first = timeline.sessionsTouching(file, 3);
      assert.deepEqual(first.map((s) => s.lastAt), all.slice(0, 3).map((s) => s.lastAt), `${file}: the 3 most recent`);
      assert.ok(first.every((s) => all.some((a) => a.id === s.id && a.memories === s.memories)), file);
    }
    assert.deepEqual(timeline.sessionsTouching('nowhere.ts', 5), []);
    // What the sessions table knows of a session comes with it, whichever way it was found.
    db.prepare("INSERT INTO sessions (id, agent, started_at, title) VALUES ('s7', 'claude-code', 1, 'Seven')").run();
    for (const file of ['src/a.ts', 'docs/d.md']) {
      const seven = timeline.sessionsTouching(file, 100).find((t) => t.id === 's7');
      assert.deepEqual(seven && [seven.agent, seven.title, seven.startedAt], ['claude-code', 'Seven', 1], file);
    }
    store.update({ ...store.get(forgotten.id)!, status: 'active', updatedAt: forgotten.updatedAt });
  });

  it('reads the same pages, whichever way, as a filter of every memory would, page after page', () => {
    for (const filter of queries) {
      for (const statuses of [['active'], ['active', 'archived']] as const) {
        let before: TimelineQuery['before'] = null;
        for (let n = 0; n < 4; n++) {
          const q: TimelineQuery = { ...filter, statuses, before, limit: 23 };
          const page = timeline.page(q);
          assert.deepEqual(page, expected(all, rowids, q), `${JSON.stringify(filter)} ${statuses.join('+')}, page ${n + 1}`);
          if (page.length < 23) break;
          before = { updatedAt: page.at(-1)!.updatedAt, rowid: page.at(-1)!.rowid };
        }
      }
    }
  });
});
