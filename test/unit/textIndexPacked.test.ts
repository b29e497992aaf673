import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { recall } from '../../server/src/recall/recall';
import { openDatabase } from '../../server/src/store/database';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { Stemmer } from '../../server/src/store/textIndex/stemmer';
import { TermDictionary, packTerms } from '../../server/src/store/textIndex/termDictionary';
import { TEXT_INDEX_ROWS_MAX } from '../../server/src/store/textIndex/residentTextIndex';
import { type IndexedRow, TextIndex } from '../../server/src/store/textIndex/textIndex';
import { readImageFile, writeImageFile, type TextIndexImage } from '../../server/src/store/textIndex/textIndexImage';
import { ByteWriter, decodeGaps } from '../../server/src/store/textIndex/varints';
import { tempDir } from '../support/tempDirs';

const WORDS = ['pool', 'connection', 'retry', 'café', 'décor', 'München', 'frames', 'watchdog', 'parseConfig', '接続', 'rocket', 'timeout', 'x86_64', '🚀'];

/** Memory `rowid`'s text in version `version`: a few of the words, some repeated, in every column. */
function row(rowid: number, version = 0): IndexedRow {
  const pick = (n: number) => WORDS[(rowid * 7 + n * 5 + version * 3) % WORDS.length]!;
  return { rowid, title: `${pick(1)} ${pick(2)}`, body: `${pick(3)} then ${pick(4)} ${pick(4)}; ${pick(5)}.`, why: rowid % 3 ? `because ${pick(6)}` : null, tags: rowid % 4 ? pick(7) : '' };
}

/** An index of `rows`, put in slices as a build reads them, with FTS5's own tokenizer. */
function indexOf(rows: readonly IndexedRow[], stemmer: Stemmer, packed: boolean): TextIndex {
  const index = new TextIndex((runs) => stemmer.terms(runs));
  for (let at = 0; at < rows.length; at += 40) index.put(rows.slice(at, at + 40));
  if (packed) index.compact();
  return index;
}

/** Two images of one content, whatever their generation. */
function assertSameImage(actual: TextIndexImage, expected: TextIndexImage, message: string): void {
  assert.deepEqual({ ...actual, generation: 0 }, { ...expected, generation: 0 }, message);
}

describe('the packed text index', () => {
  const stemmer = new Stemmer(openDatabase(path.join(tempDir(), 'stem.db')).db);

  it('reads every list back as it was built, after packing it', () => {
    const rows = Array.from({ length: 300 }, (_, i) => row(i + 1));
    const built = indexOf(rows, stemmer, false);
    const packed = indexOf(rows, stemmer, true);
    assert.deepEqual(packed.size().postings, built.size().postings);
    assert.equal(packed.rows, 300);
    assert.equal(packed.averageLength, built.averageLength);
    for (const terms of built.termsOf(WORDS)) {
      for (const term of terms) {
        const [a, b] = [built.postings(term)!, packed.postings(term)!];
        assert.equal(b.count, a.count, term);
        assert.deepEqual([...b.rowids], [...a.rowids.subarray(0, a.count)], term);
        assert.deepEqual([...b.freqs], [...a.freqs.subarray(0, a.count)], term);
      }
    }
    for (const { rowid } of rows) assert.equal(packed.length(rowid), built.length(rowid));
  });

  it('packs a first build of as many memories as the server indexes', () => {
    // Every memory of a first build is added before the one pack: past ~125,000 a spread of them overflowed the stack.
    const index = new TextIndex((runs) => stemmer.terms(runs));
    const words = ['pool', 'retry', 'rocket'];
    for (let at = 1; at <= TEXT_INDEX_ROWS_MAX; at += 5000) {
      index.put(Array.from({ length: Math.min(5000, TEXT_INDEX_ROWS_MAX - at + 1) }, (_, i) => ({ rowid: at + i, title: words[(at + i) % 3]!, body: '', why: null, tags: '' })));
    }
    index.compact();
    assert.equal(index.rows, TEXT_INDEX_ROWS_MAX);
    assert.equal(index.postings(index.termsOf(['rocket'])[0]![0]!)!.count, Math.floor((TEXT_INDEX_ROWS_MAX + 1) / 3));
  });

  it('reads each list after edits, deletions and additions as an index built afresh from the result', () => {
    const rows = new Map(Array.from({ length: 300 }, (_, i) => [i + 1, row(i + 1)]));
    const index = indexOf([...rows.values()], stemmer, true);
    // Old memories edited (their rowids come before the packed ones' ends), some deleted, new ones added.
    for (const rowid of [1, 2, 50, 51, 150, 299]) rows.set(rowid, row(rowid, 1));
    index.put([1, 2, 50, 51, 150, 299].map((rowid) => rows.get(rowid)!));
    for (const rowid of [3, 51, 100, 300]) {
      rows.delete(rowid);
      index.remove(rowid);
    }
    const added = Array.from({ length: 30 }, (_, i) => row(301 + i));
    for (const r of added) rows.set(r.rowid, r);
    index.put(added);
    // An edit of a memory put since the packing, and one of a rowid set far out by hand.
    rows.set(305, row(305, 2));
    index.put([rows.get(305)!]);
    rows.set(20_000_000, row(20_000_000));
    index.put([rows.get(20_000_000)!]);
    // Packed ones taken out: 6 edited, 3 deleted; put since: 5 edited ones left, 30 new, 1 far out.
    assert.equal(index.changedSincePacked, 9 + 36);

    const fresh = indexOf([...rows.values()].sort((a, b) => a.rowid - b.rowid), stemmer, true);
    assert.equal(index.rows, fresh.rows);
    assert.ok(Math.abs(index.averageLength - fresh.averageLength) < 1e-9);
    for (const terms of fresh.termsOf(WORDS)) {
      for (const term of terms) {
        const [a, b] = [fresh.postings(term), index.postings(term)];
        assert.equal(b?.count, a?.count, term);
        if (!a || !b) continue;
        assert.deepEqual([...b.rowids], [...a.rowids], term);
        assert.deepEqual([...b.freqs], [...a.freqs], term);
        for (const rowid of [1, 3, 51, 305, 20_000_000]) assert.equal(b.has(rowid), a.has(rowid), `${term} in ${rowid}`);
      }
    }
    for (const rowid of [...rows.keys(), 3, 51, 100, 300]) assert.equal(index.length(rowid), fresh.length(rowid), `length of ${rowid}`);
    assertSameImage(index.image(), fresh.image(), 'packed with its changes, it is what a new build packs');
    index.compact();
    assert.equal(index.changedSincePacked, 0);
    assertSameImage(index.image(), fresh.image(), 'compacted');
  });

  it('goes through a file and back as the same index', () => {
    const rows = Array.from({ length: 200 }, (_, i) => row(i + 1));
    const index = indexOf(rows, stemmer, true);
    index.generation = 42;
    const file = path.join(tempDir(), 'index');
    writeImageFile(file, index.image());
    const read = readImageFile(file);
    assert.equal(read.generation, 42);
    assertSameImage(read, index.image(), 'the arrays');
    const again = new TextIndex((runs) => stemmer.terms(runs), read);
    assert.deepEqual(again.size(), index.size());
    assert.equal(again.postings(again.termsOf(['rocket'])[0]![0]!)?.count, index.postings(index.termsOf(['rocket'])[0]![0]!)?.count);
  });

  it('finds terms of any script by their UTF-8, and ids given since after them', () => {
    const terms = ['pool', 'café', '接続', '🚀', 'a', 'z', 'é', 'poo'];
    const { packed, order } = packTerms(terms);
    const dictionary = new TermDictionary(packed);
    order.forEach((from, id) => assert.equal(dictionary.find(terms[from]!), id, terms[from]));
    assert.equal(dictionary.find('po'), undefined);
    assert.equal(dictionary.find('pools'), undefined);
    assert.equal(dictionary.idOf('new'), terms.length);
    assert.equal(dictionary.idOf('new'), terms.length, 'the same id again');
    assert.equal(dictionary.find('café'), order.indexOf(1));
    assert.deepEqual(dictionary.terms(), [...order.map((from) => terms[from]), 'new']);
  });

  it('writes ascending numbers as varint gaps, up to the largest rowid', () => {
    const numbers = [0, 1, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, 268_435_455, 268_435_456, 2 ** 31 - 1];
    const writer = new ByteWriter(4);
    numbers.forEach((n, i) => writer.varint(n - (numbers[i - 1] ?? 0)));
    const bytes = writer.bytes();
    const out = new Int32Array(numbers.length);
    assert.equal(decodeGaps(bytes, 0, bytes.length, out, 0), numbers.length);
    assert.deepEqual([...out], numbers);
  });
});

describe('the memory server keeping its packed index', () => {
  it('is used while many changes wait apart from its packed lists, then built again', async () => {
    const file = path.join(tempDir(), 'memory.db');
    const server = new MemoryStore(openDatabase(file).db, undefined, { resident: true });
    const other = new MemoryStore(openDatabase(file).db);
    for (let i = 0; i < 50; i++) other.add({ kind: 'note', title: `Harbour ${i}`, body: 'The ferry leaves at nine.', source: 'user' });
    assert.equal(await server.reads.buildTextIndexElsewhere(file), 50);
    // Written in batches each small enough to bring the index up to date on the next request.
    for (let batch = 0; batch < 3; batch++) {
      for (let i = 0; i < 700; i++) other.add({ kind: 'note', title: `Lighthouse ${batch} ${i}`, body: 'The keeper trims the wick.', source: 'user' });
      assert.ok(server.reads.textIndex(), `batch ${batch}: the index is used`);
    }
    assert.equal(server.reads.textIndexState, 'fragmented');
    assert.equal(server.reads.textIndex()!.postings('lighthous')?.count, 2100);
    const latest = other.add({ kind: 'note', title: 'Zeppelin hangar', body: 'The zeppelin docks at hangar nine.', source: 'user' });
    assert.equal(await server.reads.buildTextIndexElsewhere(file), 2151);
    assert.equal(server.reads.textIndexState, 'ready');
    const index = server.reads.textIndex()!;
    assert.equal(index.changedSincePacked, 0);
    assert.equal(index.postings('lighthous')?.count, 2100);
    assert.deepEqual(recall(server, { query: 'zeppelin hangar', limit: 3 }).map((r) => r.memory.id), [latest.id]);
  });
});
