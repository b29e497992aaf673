import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { memoryValue } from '../../server/src/capacity/value';
import { openDatabase, type SqliteDatabase } from '../../server/src/store/database';
import { FileMemoryTallies } from '../../server/src/store/fileMemoryTally';
import { LifecycleStore } from '../../server/src/store/lifecycleStore';
import { ListingStates } from '../../server/src/store/listingStates';
import { MemoryChangeLog } from '../../server/src/store/memoryChangeLog';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { tempDir } from '../support/tempDirs';

const FILES = ['src/a.ts', 'src/b.ts', 'src/c.ts'];
const SYMBOLS = ['load', 'save', 'Cache.get', 'Cache.put', 'nowhere'];

/** The memory server's connection and another one (a hook, the CLI) on one database. */
function stores(): { db: SqliteDatabase; otherDb: SqliteDatabase; resident: MemoryStore; other: MemoryStore } {
  const file = path.join(tempDir(), 'memory.db');
  const { db } = openDatabase(file);
  const otherDb = openDatabase(file).db;
  return { db, otherDb, resident: new MemoryStore(db, undefined, { resident: true }), other: new MemoryStore(otherDb) };
}

/** `count` memories over three files and four symbols, some with two files; every 9th a constraint. */
function fill(store: MemoryStore, from: number, count: number): string[] {
  const ids: string[] = [];
  for (let i = from; i < from + count; i++) {
    const files = i % 4 === 0 ? [FILES[i % 3]!, FILES[(i + 1) % 3]!] : [FILES[i % 3]!];
    const symbols = [SYMBOLS[i % 4]!, ...(i % 5 === 0 ? [SYMBOLS[(i + 1) % 4]!] : [])];
    const kind = i % 9 === 0 ? ('constraint' as const) : i % 2 ? ('diff' as const) : ('note' as const);
    // Times out of rowid order, and some equal, as imports and edits leave them.
    ids.push(store.add({ kind, title: `Memory ${i}`, source: 'user', files, symbols }, 1_000_000 + ((i * 7919) % 997) * 10).id);
  }
  return ids;
}

/**
 * What CodeLens's tally means, asked of `memories` itself: active, constraints aside, newest
 * (last changed, then last added) first.
 */
function expected(db: SqliteDatabase, file: string, maxIds: number, maxPerSymbol: number) {
  const listed = `FROM memory_files f CROSS JOIN memories m ON m.rowid = f.memory_rowid WHERE f.path = @file AND m.status = 'active' AND m.kind != 'constraint'`;
  const total = db.prepare(`SELECT count(*) ${listed}`).pluck().get({ file }) as number;
  const recentIds = db.prepare(`SELECT m.id ${listed} ORDER BY m.updated_at DESC, m.rowid DESC LIMIT @maxIds`).pluck().all({ file, maxIds }) as string[];
  const bySymbol = new Map<string, { count: number; ids: string[] }>();
  for (const symbol of SYMBOLS) {
    const mine = `${listed} AND m.rowid IN (SELECT memory_rowid FROM memory_symbols WHERE symbol = @symbol)`;
    const count = db.prepare(`SELECT count(*) ${mine}`).pluck().get({ file, symbol }) as number;
    const ids = db.prepare(`SELECT m.id ${mine} ORDER BY m.updated_at DESC, m.rowid DESC LIMIT @maxPerSymbol`).pluck().all({ file, symbol, maxPerSymbol }) as string[];
    if (count) bySymbol.set(symbol, { count, ids });
  }
  return { total, recentIds, bySymbol };
}

function assertTallies(tallies: FileMemoryTallies, otherDb: SqliteDatabase, note: string): void {
  for (const file of [...FILES, 'src/none.ts']) {
    for (const [maxIds, maxPerSymbol] of [[5, 3], [1000, 1000]] as const) {
      const want = expected(otherDb, file, maxIds, maxPerSymbol);
      const tally = tallies.file(file, maxIds);
      assert.deepEqual({ total: tally.total, recentIds: tally.recentIds }, { total: want.total, recentIds: want.recentIds }, `${note}: ${file}`);
      const bySymbol = tallies.symbols(file, [...SYMBOLS, 'load'], maxPerSymbol);
      assert.deepEqual(new Map([...bySymbol].map(([s, t]) => [s, { count: t.count, ids: [...t.ids] }])), want.bySymbol, `${note}: ${file}'s symbols`);
    }
  }
}

/** Another connection's writes: memories added, archived, forgotten, made constraints, edited (newer), purged. */
function write(other: MemoryStore, otherDb: SqliteDatabase, ids: readonly string[], from: number): void {
  fill(other, from, 40);
  const archived = other.get(ids[3]!)!;
  other.update({ ...archived, status: 'archived' });
  const forgotten = other.get(ids[6]!)!;
  other.update({ ...forgotten, status: 'forgotten' });
  const pinned = other.get(ids[10]!)!;
  other.update({ ...pinned, kind: 'constraint', pin: 'hard' });
  const revived = other.get(ids[18]!)!;
  other.update({ ...revived, kind: 'note', updatedAt: 5_000_000 });
  const edited = other.get(ids[1]!)!;
  other.update({ ...edited, body: 'edited later', updatedAt: 6_000_000 });
  new LifecycleStore(otherDb, memoryValue).purge([ids[2]!, ids[5]!]);
}

describe("CodeLens's tallies of a file's memories (store/fileMemoryTally.ts)", () => {
  it('count and name what a query of every memory finds, with states read per tally or kept in the memory server', () => {
    const { db, otherDb, resident, other } = stores();
    const ids = fill(resident, 0, 300);
    const states = new ListingStates(db, new MemoryChangeLog(db), () => resident.generation(), { slice: 7 });
    const kept = new FileMemoryTallies(db, states, () => resident.generation());
    const perTally = new FileMemoryTallies(otherDb, null);
    assert.equal(states.read(), null, 'not built: each tally reads its own');
    assertTallies(kept, otherDb, 'before the build');
    let slices = 0;
    for (let step = states.advance(); step !== 'built'; step = states.advance()) {
      assert.equal(step, 'building');
      // Another process writes in the middle of the build.
      if (++slices === 20) {
        write(other, otherDb, ids, 1000);
        assertTallies(kept, otherDb, 'during the build');
      }
      assert.ok(slices < 100);
    }
    assert.ok(slices > 40, `built in slices (${slices})`);
    assert.ok(states.stale, 'the writes during the build are still to be applied');
    assert.ok(states.read(), 'and are, on reading');
    assertTallies(kept, otherDb, 'after the build');
    assertTallies(perTally, otherDb, 'per tally');
    write(other, otherDb, ids.slice(50), 2000);
    assert.equal(states.advance(), 'updated', 'from the change log');
    assert.equal(states.advance(), null);
    assertTallies(kept, otherDb, 'updated by the job');
    write(other, otherDb, ids.slice(100), 3000);
    resident.add({ kind: 'note', title: 'own write', source: 'user', files: [FILES[0]!], symbols: ['load'] }, 9_000_000);
    assertTallies(kept, otherDb, 'updated on reading');
  });

  it('is built again after more changes than it updates, and not kept for rowids too large', () => {
    const { db, otherDb, resident, other } = stores();
    fill(resident, 0, 60);
    const states = new ListingStates(db, new MemoryChangeLog(db), () => resident.generation(), { syncRowsMax: 10, rowidMax: 200 });
    const kept = new FileMemoryTallies(db, states);
    while (states.advance());
    assert.ok(states.read());
    fill(other, 60, 11);
    assert.equal(states.read(), null, 'eleven changes: built again');
    assertTallies(kept, otherDb, 'while building');
    while (states.advance());
    assert.ok(states.read());
    assertTallies(kept, otherDb, 'built again');
    fill(other, 71, 140);
    assert.equal(states.read(), null, 'rebuilding');
    while (states.advance());
    assert.equal(states.read(), null, 'rowids past 200: not kept');
    assert.equal(states.advance(), null);
    assertTallies(kept, otherDb, 'read per tally');
  });

  it('are built without their index, as an import into an empty store leaves it for a while', () => {
    const { db, otherDb, resident } = stores();
    fill(resident, 0, 50);
    otherDb.exec('DROP INDEX memories_status_updated');
    const states = new ListingStates(db, new MemoryChangeLog(db), () => resident.generation(), { slice: 7 });
    while (states.advance());
    assert.ok(states.read());
    assertTallies(new FileMemoryTallies(db, states), otherDb, 'built by a scan');
  });

  it('are read per tally, after saying so once, when the states cannot be read', () => {
    const { db, otherDb, resident } = stores();
    fill(resident, 0, 50);
    let damaged = false;
    const generation = () => {
      if (damaged) throw new Error('database disk image is malformed');
      return resident.generation();
    };
    const states = new ListingStates(db, new MemoryChangeLog(db), generation);
    assert.equal(states.advance(), 'building');
    damaged = true;
    assert.equal(states.advance(), 'built', 'a build reads no generation');
    fill(resident, 50, 1);
    assert.throws(() => states.advance(), /malformed/);
    damaged = false;
    assert.equal(states.advance(), null, 'once');
    assert.equal(states.read(), null);
    assertTallies(new FileMemoryTallies(db, states), otherDb, 'without the states');
  });

  it('are what the memory server keeps, through the store', () => {
    const { otherDb, resident, other } = stores();
    const ids = fill(resident, 0, 120);
    while (resident.advanceListingStates());
    write(other, otherDb, ids, 500);
    const symbols = resident.symbolMemoryTally(FILES[1]!, SYMBOLS, 4);
    const want = expected(otherDb, FILES[1]!, 6, 4);
    assert.deepEqual(resident.fileMemoryTally(FILES[1]!, 6), { total: want.total, recentIds: want.recentIds });
    assert.deepEqual(new Map([...symbols].map(([s, t]) => [s, { count: t.count, ids: [...t.ids] }])), want.bySymbol);
    assert.equal(other.advanceListingStates(), null, 'a short command keeps none');
  });
});
