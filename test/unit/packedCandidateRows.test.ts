import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryId } from '../../server/src/memory/types';
import type { CandidateRow } from '../../server/src/store/candidateRows';
import { PackedCandidateRows } from '../../server/src/store/packedCandidateRows';
import { scoringRowFields } from '../support/scoringRowFields';

function row(rowid: number, overrides: Partial<CandidateRow> = {}): CandidateRow {
  return {
    rowid,
    id: `m_${String(rowid).padStart(26, '0')}` as MemoryId,
    kind: rowid % 3 === 0 ? 'decision' : 'diff',
    pin: rowid % 5 === 0 ? 'hard' : 'none',
    status: rowid % 7 === 0 ? 'archived' : 'active',
    importance: (rowid % 10) / 10 + 0.013,
    updatedAt: 1_700_000_000_000 + rowid * 1000.5,
    files: rowid % 4 === 0 ? [] : [`src/f${rowid % 11}.ts`, ...(rowid % 4 === 1 ? [`src/g${rowid % 5}.ts`] : [])],
    symbols: Array.from({ length: rowid % 4 }, (_, i) => `Parser.m${(rowid + i) % 13}`),
    anchor: rowid % 6 === 0 ? { path: `src/f${rowid % 11}.ts`, startLine: rowid % 40, endLine: (rowid % 40) + 3, stale: rowid % 12 === 0 } : null,
    glob: rowid % 9 === 0 ? 'src/**/*.ts' : null,
    soleFile: rowid % 4 === 2 || rowid % 4 === 3 ? rowid % 11 : -1,
    soleFolder: rowid % 4 === 2 || rowid % 4 === 3 ? 0 : -1,
    ...overrides,
  };
}

/** The packed rows against a Map given the same calls. */
function both() {
  const packed = new PackedCandidateRows();
  const map = new Map<number, CandidateRow>();
  return {
    packed,
    set: (r: CandidateRow) => (packed.set(r.rowid, r), map.set(r.rowid, r)),
    delete: (rowid: number) => (packed.delete(rowid), map.delete(rowid)),
    same(rowids: Iterable<number>) {
      for (const rowid of rowids) assert.deepEqual(scoringRowFields(packed.get(rowid)), scoringRowFields(map.get(rowid)), `rowid ${rowid}`);
    },
  };
}

describe('scoring rows packed in columns', () => {
  it('gives back each row as it was kept: tags, anchor, glob, numbers, for small, large and odd rowids', () => {
    const rows = both();
    const rowids = [0, 1, 2, 3, 6, 9, 12, 1000, 1023, 1024, 5000, 150_001];
    for (const rowid of rowids) rows.set(row(rowid));
    // Kept as given: past the dense columns, an id a byte per character cannot hold, a new kind past 255.
    const odd = [row(1 << 24), row(2 ** 40), row(-1), row(77, { id: 'm_é' as MemoryId }), row(78, { id: `m_${'x'.repeat(300)}` as MemoryId })];
    for (const r of odd) rows.set(r);
    for (let k = 0; k < 300; k++) rows.set(row(10_000 + k, { kind: `kind${k}` as CandidateRow['kind'] }));
    rows.same([...rowids, ...odd.map((r) => r.rowid), 4, 5, 99, 150_000, 200_000, 10_000, 10_254, 10_299]);
    const one = rows.packed.get(6)!;
    assert.deepEqual(one.anchor, { path: 'src/f6.ts', startLine: 6, endLine: 9, stale: false });
    assert.equal(rows.packed.get(9)!.glob, 'src/**/*.ts');
    assert.equal(rows.packed.get(3)!.importance, 0.313, 'a number as it was, not as a float32');
  });

  it('replaces and forgets rows, and keeps the others when its pools are packed again', () => {
    const rows = both();
    const n = 40_000;
    for (let rowid = 1; rowid <= n; rowid++) rows.set(row(rowid));
    const given = rows.packed.get(150)!;
    // More symbols than before, fewer, none; then enough changes that the pools are packed again.
    rows.set(row(5, { symbols: ['a', 'b', 'c', 'd', 'e', 'f'], files: ['x.ts', 'y.ts', 'z.ts'] }));
    rows.set(row(6, { symbols: [], files: [], anchor: null, glob: '*.md' }));
    rows.delete(9);
    rows.delete(123_456);
    for (let round = 0; round < 4; round++) for (let rowid = 100; rowid <= n; rowid += 2) rows.set(row(rowid, { symbols: [`S${round}.r${rowid % 17}`, 'shared'], importance: round / 4 }));
    for (let rowid = 101; rowid <= n; rowid += 10) rows.delete(rowid);
    rows.same(Array.from({ length: n + 5 }, (_, i) => i));
    // A row given out before its memory changed and the pools were packed again is as it was.
    assert.deepEqual(scoringRowFields(given), scoringRowFields(row(150)));
    assert.notDeepEqual(scoringRowFields(rows.packed.get(150)), scoringRowFields(row(150)));
  });

  it('forgets everything on clear and keeps rows again after it', () => {
    const rows = both();
    for (let rowid = 1; rowid < 3000; rowid++) rows.set(row(rowid));
    rows.set(row(2 ** 40));
    rows.packed.clear();
    for (const rowid of [1, 2999, 2 ** 40]) assert.equal(rows.packed.get(rowid), undefined);
    rows.packed.set(7, row(7, { kind: 'constraint' }));
    assert.deepEqual(scoringRowFields(rows.packed.get(7)), scoringRowFields(row(7, { kind: 'constraint' })));
  });
});
