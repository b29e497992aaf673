import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryId, MemoryKind, PinLevel } from '../../server/src/memory/types';
import { explainScore, scoreOf, type ScoringContext } from '../../server/src/recall/scoring';
import type { RecallRequest } from '../../server/src/recall/recall';
import { DEFAULT_WEIGHTS } from '../../server/src/recall/weights';
import type { CandidateRow } from '../../server/src/store/memoryStore';
import { folderOf, NOT_ONE, PathIds, UNSEEN_PATH } from '../../server/src/store/pathIds';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 25);

/** A small deterministic generator: the same cases every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
}

function pick<T>(next: () => number, values: readonly T[]): T {
  return values[Math.floor(next() * values.length)]!;
}

const FILES = ['src/a.ts', 'src/b.ts', 'src/db/pool.ts', 'README.md', 'lib/x.py'];
const SYMBOLS = ['Parser', 'Parser.peek', 'Pool.acquire', 'main', 'Pool'];

/** Paths by number, as the store's candidate reader gives them out. */
const ids = new PathIds();

function candidate(next: () => number, rowid: number): CandidateRow {
  const files = FILES.filter(() => next() < 0.3);
  const anchored = next() < 0.2;
  return {
    rowid,
    id: `m_${rowid}` as MemoryId,
    kind: pick<MemoryKind>(next, ['constraint', 'decision', 'gotcha', 'fact', 'summary', 'note', 'diff', 'intent']),
    pin: pick<PinLevel>(next, ['none', 'none', 'soft', 'hard']),
    status: next() < 0.2 ? 'archived' : 'active',
    importance: pick(next, [0, 0.25, 0.5, 1]),
    updatedAt: NOW - Math.floor(next() * 400 * DAY),
    files,
    symbols: SYMBOLS.filter(() => next() < 0.3),
    anchor: anchored ? { path: pick(next, FILES), startLine: 3, endLine: 9, stale: next() < 0.3 } : null,
    glob: next() < 0.1 ? pick(next, ['src/**', '**/*.py', 'nothing/**']) : null,
    ...ids.sole(files),
  };
}

describe('recall scoring', () => {
  it('places a memory with one tagged file by number as by comparing paths', () => {
    const next = random(11);
    // Paths no row has yet: a file never seen, in a folder seen or not.
    const focus = [...FILES, 'src/new.ts', 'docs/new.md'];
    for (let n = 0; n < 3000; n++) {
      const row = candidate(next, n + 1);
      const file = pick(next, focus);
      const request: RecallRequest = { file, symbol: next() < 0.5 ? pick(next, SYMBOLS) : undefined, line: next() < 0.3 ? 5 : undefined, limit: 10 };
      const context: ScoringContext = { request, weights: DEFAULT_WEIGHTS, now: NOW, text: new Map(), bestRank: -10, usage: new Map(), folder: folderOf(file), place: ids.find(file) };
      const byPaths = explainScore(context, { ...row, soleFile: NOT_ONE, soleFolder: NOT_ONE });
      assert.deepEqual(explainScore(context, row), byPaths, JSON.stringify({ request, row }));
    }
  });

  it('scores a candidate to the same number with and without worded parts, whose points add up to it', () => {
    const next = random(7);
    for (let n = 0; n < 3000; n++) {
      const file = next() < 0.7 ? pick(next, FILES) : undefined;
      const request: RecallRequest = {
        file,
        line: next() < 0.5 ? Math.floor(next() * 12) : undefined,
        symbol: next() < 0.5 ? pick(next, SYMBOLS) : undefined,
        openFiles: next() < 0.3 ? FILES.filter(() => next() < 0.4) : undefined,
        limit: 10,
      };
      const row = candidate(next, n + 1);
      const rank = next() < 0.5 ? -next() * 10 : undefined;
      const weights = next() < 0.5 ? DEFAULT_WEIGHTS : { ...DEFAULT_WEIGHTS, text: pick(next, [0, 1, 5]), file: pick(next, [0, 2]), usage: pick(next, [0, 3]), kind: pick(next, [0, 1]) };
      const usage = new Map(next() < 0.4 ? [[row.rowid, { shown: Math.floor(next() * 5), acted: Math.floor(next() * 3) }]] : []);
      const context: ScoringContext = { request, weights, now: NOW, text: new Map(rank === undefined ? [] : [[row.rowid, rank]]), bestRank: -10, usage, folder: file ? folderOf(file) : '', place: file ? ids.find(file) : UNSEEN_PATH };
      const explained = explainScore(context, row);
      assert.equal(scoreOf(context, row), explained.score, `case ${n}: ${JSON.stringify({ request, row, rank })}`);
      const sum = explained.parts.reduce((total, p) => total + p.points, 0);
      assert.ok(Math.abs(sum - explained.score) < 0.01 * explained.parts.length + 1e-9, `case ${n}: parts add up to ${sum}, score ${explained.score}`);
    }
  });

  it('words each part it counts', () => {
    const row: CandidateRow = { rowid: 1, id: 'm_1' as MemoryId, kind: 'constraint', pin: 'hard', status: 'active', importance: 0.5, updatedAt: NOW - 3 * DAY, files: ['src/b.ts'], symbols: ['Parser.peek'], anchor: null, glob: null, ...ids.sole(['src/b.ts']) };
    const request: RecallRequest = { file: 'src/a.ts', symbol: 'Parser', openFiles: ['src/b.ts'], limit: 5 };
    const context: ScoringContext = { request, weights: DEFAULT_WEIGHTS, now: NOW, text: new Map([[1, -2]]), bestRank: -4, usage: new Map([[1, { shown: 3, acted: 2 }]]), folder: 'src', place: ids.find('src/a.ts') };
    const reasons = explainScore(context, row).parts.map((p) => p.reason);
    assert.deepEqual(reasons, ['text match', 'same folder as src/a.ts', 'updated 3 d ago', 'constraint', 'importance 0.5', 'hard pin', 'shown 3×, used 2×']);
    const elsewhere = explainScore({ ...context, request: { symbol: 'Parser', openFiles: ['src/b.ts'], limit: 5 }, folder: '' }, row).parts.map((p) => p.reason);
    assert.deepEqual(elsewhere.slice(0, 3), ['text match', 'about src/b.ts, open in the editor', 'about Parser.peek, related to Parser']);
  });
});
