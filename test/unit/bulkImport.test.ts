import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { anchorLines } from '../../server/src/anchors/anchorFromText';
import { newMemoryId } from '../../server/src/memory/ids';
import type { Memory } from '../../server/src/memory/types';
import { openDatabase, type SqliteDatabase } from '../../server/src/store/database';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { FtsTags } from '../../server/src/store/bulkImportTags';
import { prepareForImport } from '../../server/src/store/preparedImport';
import { Redactor } from '../../server/src/secrets/redact';
import { tempDir } from '../support/tempDirs';

function fresh(): { db: SqliteDatabase; store: MemoryStore } {
  const { db } = openDatabase(path.join(tempDir(), 'memory.db'));
  return { db, store: new MemoryStore(db) };
}

const SOURCE = ['import { pool } from "./pool";', '', 'export function query(sql: string) {', '  return pool.run(sql);', '}', ''].join('\n');
const WORDS = ['pool', 'query', 'retry', 'timeout', 'cache', 'shard', 'ledger', 'invoice', 'token', 'parser', 'lexer', 'queue', 'worker', 'lease'];

/** Memories of every shape an export holds: tags, anchors, meta, prose and patches, secrets to redact. */
function exportedMemories(count: number, start = Date.UTC(2025, 0, 1)): Memory[] {
  return Array.from({ length: count }, (_, i) => {
    const word = (k: number) => WORDS[(i * 7 + k * 3) % WORDS.length]!;
    const file = `src/${word(1)}/${word(2)}Store.ts`;
    const time = start + i * 60_000;
    return {
      id: newMemoryId(time),
      kind: i % 5 === 0 ? 'constraint' : i % 3 === 0 ? 'decision' : 'diff',
      title: `Edited ${word(0)}Handler.${word(1)}Of, parse_${word(2)} (+${i % 9} −1) in ${file}`,
      body: `--- a/${file}\n+++ b/${file}\n` + Array.from({ length: 20 }, (_, k) => `+    const ${word(k)}${k} = await this.${word(k + 1)}(${word(k + 2)}Id, ${i * k});`).join('\n'),
      why: i % 4 === 0 ? `Because ${word(3)} must not block ${word(4)}` : null,
      source: i % 2 ? 'claude' : 'editor',
      sessionId: i % 3 ? `session-${i % 7}` : null,
      sourceRef: i % 11 === 0 ? `claude:${i}` : null,
      createdAt: time,
      updatedAt: time + 1000,
      importance: (i % 10) / 10,
      pin: i % 13 === 0 ? 'hard' : 'none',
      status: i % 17 === 0 ? 'archived' : 'active',
      // Some names with what JSON escapes (the import passes file and symbol rows to SQLite as JSON).
      files: i % 6 === 0 ? [] : [file, ...(i % 4 === 0 ? ['src/db.ts'] : []), ...(i % 7 === 1 ? ['src/ünï/"q" \\ b\u0000n\uD800.ts'] : [])].sort(),
      symbols: i % 5 === 0 ? [] : [`${word(0)}Handler.${word(1)}Of`, ...(i % 7 === 1 ? ['emoji\uD83D\uDE00\tname\uDFFF'] : [])],
      anchor: i % 9 === 0 ? { ...anchorLines('src/db.ts', SOURCE, 2, 4), stale: i % 2 === 0 } : null,
      meta: i % 10 === 1 ? { env: { API_TOKEN: `Zq8vT2mKx91LpWc4${i}` }, note: `password = "Sup3rS3cret!${i}x"` } : { hunks: i % 4 },
    } satisfies Memory;
  });
}

/** Every row an import writes, in a comparable form. */
function contents(db: SqliteDatabase): Record<string, unknown[]> {
  const rows = (sql: string) => db.prepare(sql).raw().all();
  // The index itself, term by term and position by position (schema v12 keeps no copy of the text in it).
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_instances USING fts5vocab(main, memory_fts, 'instance')");
  return {
    memories: rows('SELECT * FROM memories ORDER BY rowid'),
    files: rows('SELECT * FROM memory_files ORDER BY memory_rowid, path'),
    symbols: rows('SELECT * FROM memory_symbols ORDER BY memory_rowid, symbol'),
    anchors: rows('SELECT * FROM anchors ORDER BY memory_rowid'),
    fts: rows('SELECT term, doc, col, offset FROM temp.fts_instances ORDER BY term, doc, col, offset'),
    matches: rows(`SELECT rowid FROM memory_fts WHERE memory_fts MATCH 'parse OR handler OR store OR sup3rs3cret' ORDER BY rowid`),
  };
}

/**
 * 300 memories with newer copies of four of them 20 places later and an older copy of one at the
 * end, imported one by one into a store of their own: what a bulk import must equal.
 */
function importedOneByOne() {
  const memories = exportedMemories(300);
  const incoming = [...memories];
  for (const i of [3, 40, 41, 250]) incoming.splice(i + 20, 0, { ...memories[i]!, title: `${memories[i]!.title} again`, updatedAt: memories[i]!.updatedAt + 5 });
  incoming.push({ ...memories[7]!, title: 'an older copy', updatedAt: memories[7]!.updatedAt - 5 });
  const oneByOne = fresh();
  return { memories, incoming, oneByOne, expected: incoming.map((m) => oneByOne.store.import(m)) };
}

describe('importing many memories at once', () => {
  it('stores exactly what importing them one by one stores: rows, tags, anchors, full-text rows, redactions', () => {
    // Newer copies in later batches and in the same batch as the original.
    const { incoming, oneByOne, expected } = importedOneByOne();
    const bulk = fresh();
    const outcomes: string[] = [];
    for (let i = 0; i < incoming.length; i += 64) outcomes.push(...bulk.store.importMany(incoming.slice(i, i + 64)));

    assert.deepEqual(outcomes, expected);
    assert.equal(expected.filter((o) => o === 'updated').length, 4);
    assert.deepEqual(contents(bulk.db), contents(oneByOne.db));
    assert.deepEqual([...bulk.store.all()], [...oneByOne.store.all()]);
    assert.ok(!JSON.stringify(contents(bulk.db)).includes('Sup3rS3cret'), 'secrets are redacted on the bulk path too');
  });

  it('in transactions added to in parts, stores what importing one by one stores; a transaction\'s terms are one segment', () => {
    // Newer copies within a part, in the next part of the same transaction, and in a later transaction.
    const { memories, incoming, oneByOne, expected } = importedOneByOne();
    const bulk = fresh();
    const tags = new FtsTags();
    const redactor = new Redactor();
    const outcomes: string[] = [];
    for (let start = 0; start < incoming.length; start += 160) {
      const transaction = bulk.store.beginImport();
      for (let i = start; i < Math.min(start + 160, incoming.length); i += 16) {
        outcomes.push(...transaction.add(incoming.slice(i, Math.min(i + 16, start + 160)).map((m) => prepareForImport(m, redactor, tags))));
      }
      transaction.commit();
    }

    assert.deepEqual(outcomes, expected);
    assert.deepEqual(contents(bulk.db), contents(oneByOne.db));
    assert.deepEqual([...bulk.store.all()], [...oneByOne.store.all()]);

    // Without updates (which write their own: rare in an import), a transaction's terms are one segment.
    const once = fresh();
    const transaction = once.store.beginImport();
    for (let i = 0; i < 160; i += 16) transaction.add(memories.slice(i, i + 16).map((m) => prepareForImport(m, redactor, tags)));
    transaction.commit();
    assert.equal((once.db.prepare('SELECT count(DISTINCT segid) AS n FROM memory_fts_idx').get() as { n: number }).n, 1);
  });

  it('undoes a whole transaction added to in parts when a part fails, and keeps the transactions before', () => {
    const { db, store } = fresh();
    const [a, b, c, d] = exportedMemories(4);
    const redactor = new Redactor();
    const tags = new FtsTags();
    const prepared = (m: Memory) => prepareForImport(m, redactor, tags);
    store.importMany([a!]);
    const settings = () => ['cache_size', 'wal_autocheckpoint', 'foreign_keys'].map((name) => db.pragma(name, { simple: true }));
    const before = settings();
    const transaction = store.beginImport();
    transaction.add([prepared(b!)]);
    assert.throws(() => transaction.add([prepared(c!), prepared({ ...d!, importance: 7 })]), /CHECK constraint failed/);
    transaction.rollback();
    assert.deepEqual([...store.all()].map((m) => m.id), [a!.id]);
    assert.deepEqual(settings(), before, "the connection's settings are put back");
    assert.throws(() => transaction.add([prepared(b!)]), /ended/);
    assert.throws(() => db.transaction(() => store.beginImport())(), /inside another transaction/);
    // The store takes the next transaction as usual.
    const next = store.beginImport();
    assert.deepEqual(next.add([prepared(b!)]), ['added']);
    next.commit();
    assert.equal(store.get(b!.id)?.title, b!.title);
  });

  it('adds and changes nothing when the same export is imported again', () => {
    const { db, store } = fresh();
    const memories = exportedMemories(120);
    store.importMany(memories);
    const before = { ...contents(db), generation: store.generation() };
    assert.deepEqual(new Set(store.importMany(memories)), new Set(['unchanged']));
    assert.deepEqual({ ...contents(db), generation: store.generation() }, before);
  });

  it("writes a batch's full-text terms as one index segment", () => {
    const { db, store } = fresh();
    // Well over the 1 MB of pending terms after which FTS5 would write a segment of its own.
    const memories = exportedMemories(600).map((m, i) => ({ ...m, body: Array.from({ length: 400 }, (_, k) => `w${(i * 401 + k * 13) % 20000}x${k % 7}`).join(' ') }));
    store.importMany(memories);
    assert.equal((db.prepare('SELECT count(DISTINCT segid) AS n FROM memory_fts_idx').get() as { n: number }).n, 1);
    assert.deepEqual(store.search('"w4010x0"', 5).length > 0, true);
  });

  it("leaves the connection's settings as they were, and FTS5's limit on pending terms at its default", () => {
    const { db, store } = fresh();
    const settings = () => ['cache_size', 'wal_autocheckpoint', 'foreign_keys'].map((name) => db.pragma(name, { simple: true }));
    const before = settings();
    store.importMany(exportedMemories(50));
    assert.deepEqual(settings(), before);
    const hashSize = db.prepare("SELECT v FROM memory_fts_config WHERE k = 'hashsize'").pluck().get();
    assert.ok(hashSize === undefined || hashSize === 1024 * 1024, `hashsize is ${String(hashSize)}`);
  });

  it("inside a caller's transaction, undoes only the failed batch", () => {
    const { db, store } = fresh();
    const [kept, c] = exportedMemories(2);
    const broken = { ...c!, id: newMemoryId(Date.UTC(2026, 0, 1)), importance: 7 };
    db.transaction(() => {
      store.importMany([kept!]);
      assert.throws(() => store.importMany([c!, broken]), /CHECK constraint failed/);
    })();
    assert.ok(store.get(kept!.id), "the caller's earlier work survives");
    assert.equal(store.get(c!.id), null, 'nothing of the failed batch is kept');
  });
});
