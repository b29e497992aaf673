import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { compact } from '../../server/src/capacity/compact';
import { consolidateDiffs } from '../../server/src/capacity/consolidate';
import { ActionRefusal, UnknownMemoryError } from '../../server/src/actions/errors';
import { archive, forget, purge, restore } from '../../server/src/actions/status';
import { capacitySettingsSchema, DEFAULT_CAPACITY } from '../../server/src/capacity/settings';
import { memoryValue, SOFT_PIN_BONUS } from '../../server/src/capacity/value';
import { enforceWatermarks } from '../../server/src/capacity/watermarks';
import type { Memory, MemoryKind, NewMemory } from '../../server/src/memory/types';
import { MEMORY_KINDS } from '../../server/src/memory/types';
import { openProject, type Project } from '../../server/src/project';
import { tempDir } from '../support/tempDirs';

const DAY = 86_400_000;
const NOW = Date.UTC(2025, 5, 1);

function fresh(): Project {
  return openProject(path.join(tempDir(), 'p'), { ...process.env, ENGRAM_HOME: tempDir() });
}

function note(project: Project, title: string, fields: Partial<NewMemory> & { daysAgo?: number } = {}): Memory {
  const { daysAgo = 0, ...rest } = fields;
  return project.store.add({ kind: 'note', title, source: 'user', ...rest }, NOW - daysAgo * DAY);
}

function diff(project: Project, file: string, symbols: string[], daysAgo: number, why: string | null = null): Memory {
  const title = `Edited ${symbols.join(', ') || file} (+1 −1)${symbols.length ? ` in ${file}` : ''}`;
  return project.store.add({ kind: 'diff', title, body: '@@ -1 +1 @@\n-a\n+b', why, source: 'editor', files: [file], symbols }, NOW - daysAgo * DAY);
}

function statusOf(project: Project, id: string): string | undefined {
  return project.store.get(id)?.status;
}

describe('the eviction value of a memory', () => {
  const base = { kind: 'note' as MemoryKind, importance: 0.5, pin: 'none' as const, updatedAt: NOW };

  it('makes a hard pin worth Infinity, so it is never a candidate', () => {
    assert.equal(memoryValue({ ...base, pin: 'hard', updatedAt: NOW - 1000 * DAY, importance: 0 }, NOW), Infinity);
  });

  it('puts any soft pin above every unpinned memory', () => {
    const weakestSoft = memoryValue({ ...base, kind: 'diff', pin: 'soft', importance: 0, updatedAt: NOW - 5000 * DAY }, NOW);
    for (const kind of MEMORY_KINDS) {
      assert.ok(weakestSoft > memoryValue({ ...base, kind, importance: 1 }, NOW), kind);
    }
    assert.ok(weakestSoft >= SOFT_PIN_BONUS);
  });

  it('values a constraint over a diff of the same age and importance, fresh or old', () => {
    for (const days of [0, 30, 365]) {
      const at = NOW - days * DAY;
      assert.ok(memoryValue({ ...base, kind: 'constraint', updatedAt: at }, NOW) > memoryValue({ ...base, kind: 'diff', updatedAt: at }, NOW), `${days} days`);
    }
  });

  it('decays with age by each kind\'s half-life, down to a floor, and rises with importance', () => {
    const fresh = memoryValue({ ...base, kind: 'diff' }, NOW);
    const halfLife = memoryValue({ ...base, kind: 'diff', updatedAt: NOW - 14 * DAY }, NOW);
    const ancient = memoryValue({ ...base, kind: 'diff', updatedAt: NOW - 10_000 * DAY }, NOW);
    assert.ok(Math.abs(halfLife - fresh * (0.1 + 0.45)) < 1e-9);
    assert.ok(Math.abs(ancient - fresh * 0.1) < 1e-9);
    assert.ok(memoryValue({ ...base, importance: 0.9 }, NOW) > memoryValue({ ...base, importance: 0.1 }, NOW));
  });

  it('counts a recent use like a recent update', () => {
    const old = { ...base, updatedAt: NOW - 200 * DAY };
    assert.equal(memoryValue({ ...old, lastUsedAt: NOW }, NOW), memoryValue(base, NOW));
    assert.ok(memoryValue({ ...old, lastUsedAt: NOW - DAY }, NOW) > memoryValue(old, NOW));
  });
});

describe('capacity settings', () => {
  it('defaults to 50,000 / 45,000, derives a missing mark, and rejects a low mark above the high one', () => {
    assert.deepEqual(capacitySettingsSchema.parse({}), DEFAULT_CAPACITY);
    assert.deepEqual(capacitySettingsSchema.parse({ high: 1000 }).watermarks, { high: 1000, low: 900 });
    assert.deepEqual(capacitySettingsSchema.parse({ low: 60_000 }).watermarks, { high: 60_000, low: 60_000 });
    assert.equal(capacitySettingsSchema.safeParse({ high: 10, low: 11 }).success, false);
  });
});

describe('watermarks', () => {
  it('change nothing at or below the high mark', () => {
    const project = fresh();
    for (let i = 0; i < 10; i++) note(project, `n${i}`, { daysAgo: i * 100 });
    const report = enforceWatermarks(project, { high: 10, low: 5 }, NOW);
    assert.deepEqual(report.archived, []);
    assert.equal(project.lifecycle.activeCount(), 10);
    project.close();
  });

  it('archive the lowest-value memories down to the low mark: old diffs before fresh rules', () => {
    const project = fresh();
    const keep = [
      project.store.add({ kind: 'constraint', title: 'Never log tokens', source: 'user' }, NOW - 400 * DAY),
      project.store.add({ kind: 'decision', title: 'We use pnpm', source: 'user', importance: 0.8 }, NOW - 10 * DAY),
      note(project, 'fresh note', { daysAgo: 1 }),
    ];
    const old = Array.from({ length: 5 }, (_, i) => diff(project, 'src/a.ts', [`f${i}`], 60 + i));
    const report = enforceWatermarks(project, { high: 6, low: 3 }, NOW);
    assert.equal(report.activeBefore, 8);
    assert.equal(report.activeAfter, 3);
    assert.deepEqual(new Set(report.archived), new Set(old.map((m) => m.id)));
    assert.equal(report.archived[0], old[4]!.id, 'the oldest diff is worth least');
    for (const m of keep) assert.equal(statusOf(project, m.id), 'active');
    for (const m of old) assert.equal(statusOf(project, m.id), 'archived');
    project.close();
  });

  it('never archive a hard pin, even when everything else is archived', () => {
    const project = fresh();
    const hard = Array.from({ length: 6 }, (_, i) => note(project, `hard ${i}`, { pin: 'hard', importance: 0, daysAgo: 3000 }));
    const soft = note(project, 'soft', { pin: 'soft', daysAgo: 3000 });
    const plain = Array.from({ length: 6 }, (_, i) => note(project, `plain ${i}`, { importance: 1 }));
    const report = enforceWatermarks(project, { high: 3, low: 2 }, NOW);
    assert.equal(report.archived.length, 7);
    assert.equal(report.activeAfter, 6);
    assert.equal(report.shortfall, 4);
    assert.equal(report.archived.at(-1), soft.id, 'the soft pin goes last');
    for (const m of hard) assert.equal(statusOf(project, m.id), 'active');
    for (const m of [soft, ...plain]) assert.equal(statusOf(project, m.id), 'archived');
    project.close();
  });

  it('keep archived memories findable by explicit search, out of recent and file context, and restorable', () => {
    const project = fresh();
    const target = note(project, 'The flaky parser test needs a seeded RNG', { files: ['src/parser.ts'], daysAgo: 500 });
    for (let i = 0; i < 4; i++) note(project, `constraint ${i}`, { kind: 'constraint', importance: 1 });
    enforceWatermarks(project, { high: 4, low: 4 }, NOW);
    assert.equal(statusOf(project, target.id), 'archived');
    const found = project.store.search('"seeded"', 10);
    assert.deepEqual(found.map((h) => [h.memory.id, h.memory.status]), [[target.id, 'archived']]);
    assert.ok(!project.store.recent(10).some((m) => m.id === target.id));
    assert.deepEqual(project.store.forFile('src/parser.ts', 10), []);
    restore(project, [target.id], NOW);
    assert.equal(statusOf(project, target.id), 'active');
    assert.deepEqual(project.store.forFile('src/parser.ts', 10).map((m) => m.id), [target.id]);
    project.close();
  });

  it('keep the memory that was shown recently over an otherwise equal one', () => {
    const project = fresh();
    const shown = note(project, 'shown', { daysAgo: 300 });
    const unseen = note(project, 'unseen', { daysAgo: 300 });
    project.usage.shown([shown.id], NOW - DAY);
    assert.deepEqual(enforceWatermarks(project, { high: 1, low: 1 }, NOW).archived, [unseen.id]);
    project.close();
  });

  it('rank and archive 100,000 memories in SQLite', (t) => {
    const project = fresh();
    const generated = performance.now();
    project.lifecycle.transaction(() => {
      for (let i = 0; i < 100_000; i++) {
        project.store.add(
          { kind: MEMORY_KINDS[i % MEMORY_KINDS.length]!, title: `memory ${i}`, source: 'editor', importance: (i % 10) / 10, pin: i % 1000 === 0 ? 'hard' : 'none' },
          NOW - ((i * 7919) % 365) * DAY - i,
        );
      }
    });
    t.diagnostic(`generated 100,000 memories in ${Math.round(performance.now() - generated)} ms`);

    let started = performance.now();
    const steady = enforceWatermarks(project, { high: 99_000, low: 94_000 }, NOW);
    t.diagnostic(`100,000 active, high 99,000 / low 94,000: archived ${steady.archived.length} in ${Math.round(performance.now() - started)} ms`);
    started = performance.now();
    const first = enforceWatermarks(project, DEFAULT_CAPACITY.watermarks, NOW);
    t.diagnostic(`94,000 active, defaults 50,000 / 45,000: archived ${first.archived.length} in ${Math.round(performance.now() - started)} ms`);

    assert.equal(steady.activeAfter, 94_000);
    assert.equal(first.activeAfter, 45_000);
    assert.equal(project.lifecycle.activeCount(), 45_000);
    assert.equal(project.store.counts().pinned.hard, 100, 'every hard pin is still active');
    project.close();
  });
});

describe('consolidation of old diffs', () => {
  it('folds five old changes of one symbol into a summary that links to each, and archives them', () => {
    const project = fresh();
    const sources = [40, 38, 35, 33, 31].map((days, i) => diff(project, 'src/parser.ts', ['Parser.parseExpr'], days, i === 0 ? 'Operator precedence was wrong\nfor unary minus' : null));
    const recent = diff(project, 'src/parser.ts', ['Parser.parseExpr'], 5);
    const report = consolidateDiffs(project, { olderThanDays: 30, minGroup: 5 }, NOW);

    assert.equal(report.groups.length, 1);
    assert.equal(report.archived, 5);
    const { summary } = report.groups[0]!;
    assert.equal(summary.kind, 'summary');
    assert.equal(summary.title, '5 changes to Parser.parseExpr in src/parser.ts between 2025-04-22 and 2025-05-01');
    assert.deepEqual(summary.files, ['src/parser.ts']);
    assert.deepEqual(summary.symbols, ['Parser.parseExpr']);
    assert.equal(summary.body.split('\n')[0], '- 2025-04-22 Edited Parser.parseExpr (+1 −1) in src/parser.ts');
    assert.match(summary.body, /why: Operator precedence was wrong for unary minus/);
    assert.deepEqual(report.groups[0]!.sources, sources.map((m) => m.id));
    assert.deepEqual(project.store.links(summary.id).from, sources.map((m) => ({ id: m.id, relation: 'summarizes' })));
    for (const m of sources) assert.equal(statusOf(project, m.id), 'archived');
    assert.equal(statusOf(project, recent.id), 'active');
    project.close();
  });

  it('makes nothing new when run again', () => {
    const project = fresh();
    for (let i = 0; i < 6; i++) diff(project, 'src/a.ts', ['run'], 40 + i);
    const first = consolidateDiffs(project, { olderThanDays: 30, minGroup: 5 }, NOW);
    const total = project.store.counts().total;
    const second = consolidateDiffs(project, { olderThanDays: 30, minGroup: 5 }, NOW + DAY);
    assert.equal(first.groups.length, 1);
    assert.deepEqual(second, { groups: [], archived: 0 });
    assert.equal(project.store.counts().total, total);
    project.close();
  });

  it('leaves groups that are too small, too recent or pinned, and groups file-level changes by file', () => {
    const project = fresh();
    const few = [40, 41, 42, 43].map((d) => diff(project, 'src/few.ts', ['few'], d));
    const young = [1, 2, 3, 4, 5].map((d) => diff(project, 'src/young.ts', ['young'], d));
    const pinned = [40, 41, 42, 43].map((d) => diff(project, 'src/pin.ts', ['p'], d));
    project.store.setPin(diff(project, 'src/pin.ts', ['p'], 44).id, 'soft', NOW - 44 * DAY);
    const fileLevel = [50, 51, 52, 53, 54].map((d) => diff(project, 'README.md', [], d));
    const report = consolidateDiffs(project, { olderThanDays: 30, minGroup: 5 }, NOW);
    assert.deepEqual(report.groups.map((g) => [g.file, g.symbol]), [['README.md', null]]);
    assert.equal(report.groups[0]!.summary.title, '5 changes to README.md between 2025-04-08 and 2025-04-12');
    for (const m of [...few, ...young, ...pinned]) assert.equal(statusOf(project, m.id), 'active');
    for (const m of fileLevel) assert.equal(statusOf(project, m.id), 'archived');
    project.close();
  });

  it('puts a change of two symbols into one summary only, the larger group', () => {
    const project = fresh();
    const both = diff(project, 'src/a.ts', ['a', 'b'], 60);
    for (let i = 0; i < 5; i++) diff(project, 'src/a.ts', ['a'], 40 + i);
    for (let i = 0; i < 4; i++) diff(project, 'src/a.ts', ['b'], 40 + i);
    const report = consolidateDiffs(project, { olderThanDays: 30, minGroup: 5 }, NOW);
    assert.deepEqual(report.groups.map((g) => [g.symbol, g.sources.length]), [['a', 6]]);
    assert.ok(report.groups[0]!.sources.includes(both.id));
    project.close();
  });
});

describe('forgetting, restoring, archiving and purging', () => {
  it('forgets softly, and restore undoes it', () => {
    const project = fresh();
    const m = note(project, 'temporary');
    const forgot = forget(project, [m.id]);
    assert.deepEqual(forgot.changed.map((s) => [s.id, s.status]), [[m.id, 'active']]);
    assert.equal(statusOf(project, m.id), 'forgotten');
    assert.deepEqual(forget(project, [m.id]).unchanged.map((s) => s.id), [m.id]);
    restore(project, [m.id], NOW);
    assert.equal(statusOf(project, m.id), 'active');
    project.close();
  });

  it('keeps a memory\'s own time when archiving, and counts a restore as a use, so the next compaction keeps it', () => {
    const project = fresh();
    const old = note(project, 'old but wanted', { daysAgo: 400 });
    const other = note(project, 'old and unwanted', { daysAgo: 300 });
    enforceWatermarks(project, { high: 1, low: 0 }, NOW);
    assert.equal(project.store.get(old.id)!.updatedAt, old.updatedAt);
    restore(project, [old.id], NOW);
    restore(project, [other.id], NOW - 200 * DAY);
    assert.equal(project.store.get(old.id)!.updatedAt, old.updatedAt);
    assert.deepEqual(enforceWatermarks(project, { high: 1, low: 1 }, NOW).archived, [other.id]);
    project.close();
  });

  it('changes nothing when any id is unknown', () => {
    const project = fresh();
    const m = note(project, 'kept');
    assert.throws(() => forget(project, [m.id, 'm_NOPE']), (e: unknown) => e instanceof UnknownMemoryError && e.message === 'no memory with id m_NOPE');
    assert.equal(statusOf(project, m.id), 'active');
    project.close();
  });

  it('refuses to archive a hard pin', () => {
    const project = fresh();
    const m = note(project, 'rule', { pin: 'hard' });
    assert.throws(() => archive(project, [m.id]), ActionRefusal);
    assert.equal(statusOf(project, m.id), 'active');
    project.close();
  });

  it('purges only forgotten or archived memories unless forced, with their index entry, tags and links', () => {
    const project = fresh();
    const gone = note(project, 'contains zanzibar', { files: ['src/x.ts'], symbols: ['X'] });
    const other = note(project, 'links to it');
    project.store.link(other.id, gone.id, 'revises');
    assert.throws(() => purge(project, { ids: [gone.id] }), ActionRefusal);
    forget(project, [gone.id]);
    assert.deepEqual(purge(project, { ids: [gone.id] }).purged.map((s) => s.id), [gone.id]);
    assert.equal(project.store.get(gone.id), null);
    assert.deepEqual(project.store.search('"zanzibar"', 10), []);
    assert.deepEqual(project.store.links(other.id), { from: [], to: [] });
    assert.deepEqual(project.lifecycle.orphans(), { fts: 0, files: 0, symbols: 0, anchors: 0, links: 0 });
    assert.deepEqual(purge(project, { ids: [other.id], force: true }).purged.map((s) => s.status), ['active']);
    project.close();
  });

  it('purges every forgotten memory with `forgotten`, and nothing else', () => {
    const project = fresh();
    const forgotten = [note(project, 'a'), note(project, 'b')];
    const archived = note(project, 'c');
    forget(project, forgotten.map((m) => m.id));
    archive(project, [archived.id]);
    assert.equal(purge(project, { forgotten: true }).purged.length, 2);
    assert.equal(project.store.counts().total, 1);
    assert.equal(statusOf(project, archived.id), 'archived');
    project.close();
  });
});

describe('compaction', () => {
  it('reports in a dry run exactly what a real run then does, changing nothing', () => {
    const project = fresh();
    for (let i = 0; i < 5; i++) diff(project, 'src/a.ts', ['run'], 40 + i);
    for (let i = 0; i < 10; i++) note(project, `note ${i}`, { daysAgo: i * 30 });
    const settings = { watermarks: { high: 8, low: 6 }, consolidation: { olderThanDays: 30, minGroup: 5 } };
    const dry = compact(project, settings, { now: NOW, dryRun: true });
    assert.equal(project.store.counts().total, 15);
    assert.equal(project.lifecycle.activeCount(), 15);
    const real = compact(project, settings, { now: NOW });
    assert.deepEqual(dry.consolidation.groups.map((g) => g.summary.title), real.consolidation.groups.map((g) => g.summary.title));
    assert.deepEqual(dry.watermarks.archived.length, real.watermarks.archived.length);
    assert.equal(real.watermarks.activeBefore, 11, 'five diffs became one summary before the watermarks ran');
    assert.equal(project.lifecycle.activeCount(), 6);
    project.close();
  });
});
