import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { searchTextInIndex } from '../../server/src/recall/indexTextSearch';
import { recall } from '../../server/src/recall/recall';
import { COVERAGE, inverseDocumentFrequency, searchText } from '../../server/src/recall/textSearch';
import { openDatabase, type SqliteDatabase } from '../../server/src/store/database';
import { LifecycleStore } from '../../server/src/store/lifecycleStore';
import { memoryValue } from '../../server/src/capacity/value';
import { MemoryStore } from '../../server/src/store/memoryStore';
import type { TextIndex } from '../../server/src/store/textIndex/textIndex';
import { tempDir } from '../support/tempDirs';

const TEXTS = [
  ['Connection pool', 'The pool keeps spare connections; parseConfig reads pool_size from engram.toml.'],
  ['Naïve café', 'Straße → München: the µs timings of the décor module, 接続 プール, emoji 🚀 rocket.'],
  ['Retry policy', 'Retries back off exponentially; the watchdog restarts the pool after 3 retries.'],
  ['decode_peer', 'decode_peer() rejects frames over 64 KiB — see PeerCodec.decodeFrame and e2e tests.'],
  ['Tabs\tand\nnewlines', "Mixed\u0301 combining marks, don't, can't, x86_64, C++, foo.bar/baz-qux, a_b_c, ABCDef."],
];

/** The memory server's store and another connection's (a hook, the CLI) on one database. */
function stores(): { db: SqliteDatabase; otherDb: SqliteDatabase; resident: MemoryStore; plain: MemoryStore } {
  const file = path.join(tempDir(), 'memory.db');
  const { db } = openDatabase(file);
  const otherDb = openDatabase(file).db;
  return { db, otherDb, resident: new MemoryStore(db, undefined, { resident: true }), plain: new MemoryStore(otherDb) };
}

function fill(store: MemoryStore, copies = 1): string[] {
  const ids: string[] = [];
  for (let c = 0; c < copies; c++) {
    TEXTS.forEach(([title, body], i) => ids.push(store.add({ kind: 'decision', title: `${title} ${c}`, body, why: i % 2 ? `because ${c}` : null, source: 'user', files: [`src/f${i}.ts`] }).id));
  }
  return ids;
}

/** Document counts and lengths as FTS5 holds them: the index must agree on every term and row. */
function assertSameAsFts(db: SqliteDatabase, index: TextIndex): void {
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.t_vocab USING fts5vocab(main, memory_fts, 'row')");
  const vocabulary = db.prepare('SELECT term, doc FROM temp.t_vocab').all() as { term: string; doc: number }[];
  assert.ok(vocabulary.length > 20);
  for (const { term, doc } of vocabulary) assert.equal(index.postings(term)?.count ?? 0, doc, `documents with "${term}"`);
  const sizes = db.prepare('SELECT id, sz FROM memory_fts_docsize').raw().all() as [number, Buffer][];
  assert.equal(index.rows, sizes.length);
  for (const [rowid, blob] of sizes) {
    // SQLite varints, one per column.
    let total = 0;
    for (let i = 0; i < blob.length; ) {
      let value = 0;
      for (;;) {
        const byte = blob[i++]!;
        value = value * 128 + (byte & 0x7f);
        if (!(byte & 0x80)) break;
      }
      total += value;
    }
    assert.equal(index.length(rowid), total, `tokens of row ${rowid}`);
  }
}

describe('the in-memory full-text index', () => {
  it('holds exactly the terms, documents and lengths FTS5 holds, whatever the script', () => {
    const { db, resident } = stores();
    fill(resident, 3);
    assert.equal(resident.reads.textIndex(), null, 'nothing until it is built');
    assert.equal(resident.reads.textIndexState, 'none');
    void resident.reads.buildTextIndex();
    assert.equal(resident.reads.textIndexState, 'ready');
    assertSameAsFts(db, resident.reads.textIndex()!);
  });

  it('ranks a word with bm25 exactly as FTS5 does', () => {
    const { resident } = stores();
    fill(resident, 4);
    void resident.reads.buildTextIndex();
    const index = resident.reads.textIndex()!;
    for (const word of ['pool', 'connections', 'retries', 'watchdog', 'café', 'münchen', 'rocket', 'because', 'frames']) {
      const fromFts = resident.reads.searchRowids(`"${word}"`, 100);
      assert.ok(fromFts.length, word);
      const found = searchTextInIndex(index, [word], index.termsOf([word]), 100, Infinity);
      assert.ok(found, word);
      assert.deepEqual([...found.ranks.keys()].sort(), fromFts.map((r) => r.rowid).sort(), `matches of ${word}`);
      for (const { rowid, rank } of fromFts) assert.ok(Math.abs(found.ranks.get(rowid)! - rank) < 1e-9, `${word}: row ${rowid} ${found.ranks.get(rowid)} vs ${rank}`);
    }
  });

  it('keeps the best few of many matches, as FTS5 ranks them, best first', () => {
    const { resident } = stores();
    fill(resident, 6);
    void resident.reads.buildTextIndex();
    const index = resident.reads.textIndex()!;
    for (const word of ['pool', 'because', 'frames', 'rocket']) {
      for (const limit of [1, 3, 5]) {
        const fromFts = resident.reads.searchRowids(`"${word}"`, limit);
        const found = searchTextInIndex(index, [word], index.termsOf([word]), limit, Infinity)!;
        assert.ok(resident.reads.searchRowids(`"${word}"`, 1000).length > limit, `${word} matches more than ${limit}`);
        const ranks = [...found.ranks.values()];
        assert.equal(ranks.length, limit);
        assert.deepEqual([...ranks].sort((a, b) => a - b), ranks, `${word}: best first`);
        ranks.forEach((rank, i) => assert.ok(Math.abs(rank - fromFts[i]!.rank) < 1e-9, `${word}, ${limit}: ${i}: ${rank} vs ${fromFts[i]!.rank}`));
      }
    }
  });

  it('ranks memories found another way by the words they have, each word looked up in its postings', () => {
    const { resident } = stores();
    fill(resident, 6);
    void resident.reads.buildTextIndex();
    const index = resident.reads.textIndex()!;
    const rowids = resident.reads.rowidsRecent(1000).slice();
    assert.ok(rowids.length >= 30);
    // Shuffled (the walk sorts them) and with a rowid no memory has.
    rowids.sort((a, b) => ((a * 7919) % 101) - ((b * 7919) % 101));
    rowids.push(1_000_000);
    for (const query of [['pool', 'retries', 'because'], ['connections', 'rocket', 'frames', 'pool', 'watchdog'], ['café', 'decode_peer', 'nothingatall']]) {
      // A budget of one posting: every word is common, and rankOthers looks each one up.
      const found = searchTextInIndex(index, query, index.termsOf(query), 5, 1)!;
      assert.ok(found.rankOthers, query.join(' '));
      const others = found.rankOthers(rowids);
      const stems = index.termsOf(query);
      const expected = new Map<number, number>();
      for (const rowid of rowids) {
        let words = 0;
        let idf = 0;
        stems.forEach((terms) => {
          const lists = terms.map((t) => index.postings(t));
          if (!terms.length || lists.some((p) => !p)) return;
          if (!lists.every((p) => p!.has(rowid))) return;
          words++;
          idf += inverseDocumentFrequency(index.rows, Math.min(...lists.map((p) => p!.count)));
        });
        const rank = -idf * (1 + (COVERAGE * words) / query.length);
        if (rank < 0) expected.set(rowid, rank);
      }
      assert.ok(expected.size > 3, query.join(' '));
      assert.deepEqual([...others.keys()].sort((a, b) => a - b), [...expected.keys()].sort((a, b) => a - b), query.join(' '));
      for (const [rowid, rank] of expected) assert.ok(Math.abs(others.get(rowid)! - rank) < 1e-9, `${query.join(' ')}: row ${rowid}`);
    }
  });

  it('leaves a phrase of several index terms to FTS5, which matches it by position', () => {
    const { resident } = stores();
    fill(resident);
    void resident.reads.buildTextIndex();
    const index = resident.reads.textIndex()!;
    assert.equal(searchTextInIndex(index, ['decode_peer'], index.termsOf(['decode_peer']), 100, Infinity), null);
    const { ranks } = searchText(resident, ['decode_peer'], 10);
    assert.equal(ranks.size, 1, 'FTS5 found it instead');
  });

  it('follows additions, edits, archiving and deletions from the change log, by any connection', () => {
    const { db, otherDb, resident, plain } = stores();
    const ids = fill(resident, 2);
    void resident.reads.buildTextIndex();
    // Written through another connection, as a hook or the CLI would.
    const added = plain.add({ kind: 'note', title: 'Zeppelin hangar', body: 'The zeppelin docks at hangar nine.', source: 'user' });
    const edited = plain.get(ids[0]!)!;
    plain.update({ ...edited, body: 'The pool was replaced by a dirigible registry.' });
    new LifecycleStore(otherDb, memoryValue).purge([ids[2]!]);
    const index = resident.reads.textIndex()!;
    assert.equal(index.postings('zeppelin')?.count, 1);
    assert.equal(index.postings(index.termsOf(['dirigible'])[0]![0]!)?.count, 1);
    assertSameAsFts(db, index);
    const hits = recall(resident, { query: 'zeppelin hangar', limit: 5 });
    assert.deepEqual(hits.map((h) => h.memory.id), [added.id]);
  });

  it('finds what FTS5 finds for a query, and ranks a memory with every word first', () => {
    const { resident, plain } = stores();
    fill(resident, 6);
    void resident.reads.buildTextIndex();
    for (const query of ['pool watchdog retries', 'café rocket décor', 'connections parseConfig', 'retry policy pool']) {
      const viaIndex = recall(resident, { query, limit: 5 }).map((h) => h.memory.title);
      const viaFts = recall(plain, { query, limit: 5 }).map((h) => h.memory.title);
      assert.ok(viaIndex.length, query);
      assert.deepEqual(new Set(viaIndex.map((t) => t.replace(/ \d+$/, ''))), new Set(viaFts.map((t) => t.replace(/ \d+$/, ''))), query);
    }
  });

  it('is dropped after more changes than it brings up to date on a request, and built again', () => {
    const { resident, plain } = stores();
    fill(resident);
    void resident.reads.buildTextIndex();
    for (let i = 0; i < 2001; i++) plain.add({ kind: 'note', title: `Bulk ${i}`, body: 'bulk import row', source: 'user' });
    assert.equal(resident.reads.textIndex(), null);
    assert.equal(resident.reads.textIndexState, 'stale');
    assert.ok(searchText(resident, ['bulk'], 10).ranks.size, 'recall asks FTS5 meanwhile');
    void resident.reads.buildTextIndex();
    assert.equal(resident.reads.textIndex()?.postings('bulk')?.count, 2001);
  });
});

describe('common words in the in-memory index (bitsets)', () => {
  /** 600 memories: every one says alpha, every 2nd beta, every 3rd gamma, every 5th delta. */
  function commonWords(store: MemoryStore): void {
    for (let i = 0; i < 600; i++) {
      const words = ['alpha', ...(i % 2 ? [] : ['beta']), ...(i % 3 ? [] : ['gamma']), ...(i % 5 ? [] : ['delta'])];
      store.add({ kind: 'note', title: `Row ${i}`, body: words.join(' '), source: 'user' });
    }
  }

  it('fills with the newest memories having every common word, as FTS5 does, and follows new ones', () => {
    const { resident, plain } = stores();
    commonWords(resident);
    // The FTS5 path plans with term counts, as after an import.
    plain.termStats.recount();
    void resident.reads.buildTextIndex();
    const index = resident.reads.textIndex()!;
    // A budget of 0 postings: every word is common, so the candidates are the fills.
    for (const terms of [['alpha', 'beta'], ['alpha', 'beta', 'gamma'], ['beta', 'delta'], ['gamma', 'delta', 'beta'], ['alpha', 'nowhere']]) {
      const viaIndex = searchTextInIndex(index, terms, index.termsOf(terms), 40, 0)!;
      const viaFts = searchText(plain, terms, 40, 0);
      assert.deepEqual([...viaIndex.ranks.keys()].sort((a, b) => a - b), [...viaFts.ranks.keys()].sort((a, b) => a - b), terms.join(' '));
    }
    assert.ok(index.bitsets.size > 0, 'the common words were checked from bitsets');
    // A new memory with all of them, written by another connection: the bitsets follow.
    const added = plain.add({ kind: 'note', title: 'Newest', body: 'alpha beta gamma delta', source: 'user' });
    const now = resident.reads.textIndex()!;
    const newest = searchTextInIndex(now, ['beta', 'delta'], now.termsOf(['beta', 'delta']), 5, 0)!;
    assert.ok(resident.reads.byRowids([...newest.ranks.keys()]).some((m) => m.id === added.id), 'the new memory is among the newest with both words');
  });
});
