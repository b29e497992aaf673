import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { memoryValue } from '../../server/src/capacity/value';
import { openDatabase, type SqliteDatabase } from '../../server/src/store/database';
import { LifecycleStore } from '../../server/src/store/lifecycleStore';
import { MemoryChangeLog } from '../../server/src/store/memoryChangeLog';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { ftsQueryOfWords, type TermOperator } from '../../server/src/store/ftsQuery';
import { fillWord, TermMatchSets, wordPieces, type FillWord } from '../../server/src/store/termMatchSets';
import { tempDir } from '../support/tempDirs';

/** Index terms as FTS5 makes them (`betas` → `beta`): the sets' keys. */
let stemsOf: (terms: readonly string[]) => (readonly string[])[] = () => [];

/** The memory server's connection and another one (a hook, the CLI) on one database. */
function stores(): { db: SqliteDatabase; otherDb: SqliteDatabase; resident: MemoryStore; other: MemoryStore } {
  const file = path.join(tempDir(), 'memory.db');
  const { db } = openDatabase(file);
  const otherDb = openDatabase(file).db;
  const resident = new MemoryStore(db, undefined, { resident: true });
  stemsOf = (terms) => resident.termStats.stems(terms);
  return { db, otherDb, resident, other: new MemoryStore(otherDb) };
}

/**
 * 700 memories: every one says alpha, every 2nd beta, every 3rd gamma, every 5th decode_peer,
 * every 13th `peer decode` (its terms the other way round); every 41st zeta and every 97th a few words in
 * other scripts.
 */
function fill(store: MemoryStore, from = 0, count = 700): string[] {
  const ids: string[] = [];
  for (let i = from; i < from + count; i++) {
    const words = ['alpha', ...(i % 2 ? [] : ['beta']), ...(i % 3 ? [] : ['gamma']), ...(i % 5 ? [] : ['decode_peer()']), ...(i % 13 ? [] : ['peer decode']), ...(i % 41 ? [] : ['zeta']), ...(i % 97 ? [] : ['München 接続'])];
    ids.push(store.add({ kind: 'note', title: `Row ${i}`, body: words.join(' '), why: i % 7 ? null : 'because beta', source: 'user' }).id);
  }
  return ids;
}

/**
 * The index terms recall would call widespread here (in a 32nd of the memories or more) and one
 * found nowhere; the sets' index terms, each with a word that makes it. decode_peer is its two
 * terms: peer has a set, decod (decode) comes from FTS5.
 */
const WIDESPREAD = new Set(['alpha', 'beta', 'gamma', 'nowher', 'decod', 'peer']);
const SET_TERMS = [
  { indexTerm: 'alpha', word: 'alpha' },
  { indexTerm: 'beta', word: 'beta' },
  { indexTerm: 'gamma', word: 'gamma' },
  { indexTerm: 'nowher', word: 'nowhere' },
  { indexTerm: 'peer', word: 'peer' },
];

/** The words as recall's fills ask for them (recall/textSearch.ts). */
function fillWords(terms: readonly string[]): FillWord[] {
  const stems = stemsOf(terms);
  return terms.map((term, i) => {
    const pieces = wordPieces(term);
    return fillWord(term, stems[i]!, pieces, stemsOf(pieces), (indexTerms) => indexTerms.length > 0 && indexTerms.every((t) => WIDESPREAD.has(t)));
  });
}

const QUERIES: readonly { terms: string[]; operator: TermOperator; limit: number }[] = [
  { terms: ['alpha', 'beta'], operator: 'AND', limit: 40 },
  { terms: ['beta', 'gamma', 'decode_peer'], operator: 'AND', limit: 25 },
  { terms: ['gamma', 'decode_peer'], operator: 'OR', limit: 60 },
  { terms: ['betas'], operator: 'OR', limit: 10 },
  { terms: ['münchen', 'beta'], operator: 'OR', limit: 30 },
  { terms: ['alpha', 'nowhere'], operator: 'AND', limit: 10 },
  { terms: ['nowhere', 'gamma'], operator: 'OR', limit: 10 },
  { terms: ['alpha', '__'], operator: 'AND', limit: 10 },
  { terms: ['alpha'], operator: 'OR', limit: 1000 },
  { terms: ['zeta', 'beta'], operator: 'AND', limit: 10 },
  { terms: ['zeta', 'münchen', 'alpha'], operator: 'AND', limit: 10 },
  { terms: ['zeta', 'gamma', 'alpha'], operator: 'OR', limit: 50 },
  { terms: ['alpha', 'zeta', 'münchen'], operator: 'OR', limit: 100 },
  { terms: ['alpha', 'zeta'], operator: 'AND', limit: 100 },
  { terms: ['beta', 'zeta', 'gamma'], operator: 'AND', limit: 20 },
  { terms: ['gamma', 'zeta', 'münchen'], operator: 'OR', limit: 100 },
  { terms: ['alpha', 'decode_peer'], operator: 'AND', limit: 60 },
  { terms: ['beta', 'decode_peer', 'zeta'], operator: 'AND', limit: 10 },
  { terms: ['decode_peer', 'gamma'], operator: 'OR', limit: 40 },
  { terms: ['decode_peer', 'zeta'], operator: 'AND', limit: 15 },
  { terms: ['decode_peer', 'zeta', 'münchen'], operator: 'OR', limit: 60 },
  { terms: ['decode_peer'], operator: 'OR', limit: 300 },
];

/** Queries with no widespread word that has a set: FTS5 answers them (the sets answer null). */
const FOR_FTS5: readonly { terms: string[]; operator: TermOperator; limit: number }[] = [
  { terms: ['zeta'], operator: 'OR', limit: 100 },
  { terms: ['münchen', 'zeta'], operator: 'AND', limit: 15 },
  { terms: ['decode', 'zeta'], operator: 'OR', limit: 15 },
];

/** What FTS5 answers on the other connection: the sets must give the same rowids in the same order. */
function fromFts(db: SqliteDatabase, terms: readonly string[], operator: TermOperator, limit: number): number[] {
  const words = fillWords(terms).map((word) => word.map((t) => t.term));
  return db.prepare('SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rowid DESC LIMIT ?').pluck().all(ftsQueryOfWords(words, operator), limit) as number[];
}

function assertSameAsFts(sets: TermMatchSets, otherDb: SqliteDatabase): void {
  for (const { terms, operator, limit } of QUERIES) {
    const viaSets = sets.newest(fillWords(terms), operator, limit);
    assert.ok(viaSets, `${terms.join(` ${operator} `)} from sets`);
    assert.deepEqual(viaSets, fromFts(otherDb, terms, operator, limit), terms.join(` ${operator} `));
  }
  for (const { terms, operator, limit } of FOR_FTS5) assert.equal(sets.newest(fillWords(terms), operator, limit), null);
}

/** Sets of SET_TERMS; `steppedRows` low, so fills also read the other words' matches at once. */
function prefilled(db: SqliteDatabase, resident: MemoryStore, steppedRows?: number): TermMatchSets {
  const sets = new TermMatchSets(db, new MemoryChangeLog(db), () => resident.generation(), { steppedRows });
  sets.prefill(() => SET_TERMS);
  while (sets.buildPending());
  return sets;
}

describe('full-text term sets (store/termMatchSets.ts)', () => {
  it('answers only once every widespread word has its set, and then as FTS5 does', () => {
    const { db, otherDb, resident } = stores();
    fill(resident);
    const sets = new TermMatchSets(db, new MemoryChangeLog(db), () => resident.generation());
    for (const { terms, operator, limit } of QUERIES) assert.equal(sets.newest(fillWords(terms), operator, limit), null);
    assert.equal(sets.prefill(() => []), 0, 'a store not counted yet gives no words');
    assert.equal(sets.prefill(() => SET_TERMS), SET_TERMS.length, 'and is asked again');
    assert.equal(sets.prefill(() => assert.fail('the counts are not read again once the sets are filled')), 0, 'once');
    assert.equal(sets.pendingCount, SET_TERMS.length);
    while (sets.buildPending());
    assert.deepEqual({ ...sets.size, bytes: 0 }, { sets: SET_TERMS.length, bytes: 0, pending: 0 });
    assertSameAsFts(sets, otherDb);
    // A compound word's terms in any order, as the in-memory index matches it, not FTS5's phrase.
    const reversed = otherDb.prepare("SELECT rowid FROM memories WHERE body LIKE '%peer decode%' AND body NOT LIKE '%decode_peer%' ORDER BY rowid DESC").pluck().all() as number[];
    assert.ok(reversed.length > 20);
    const found = sets.newest(fillWords(['decode_peer']), 'AND', 1000)!;
    assert.deepEqual(found.filter((rowid) => reversed.includes(rowid)), reversed);
    assert.equal(found.length, reversed.length + 140);
  });

  it('asks for a compound word by each of its terms, and for a word its pieces do not make as one phrase', () => {
    stores();
    const none = () => false;
    const word = (w: string) => fillWord(w, stemsOf([w])[0]!, wordPieces(w), stemsOf(wordPieces(w)), none);
    assert.deepEqual(word('render_cursor_map'), ['render', 'cursor', 'map'].map((term) => ({ term, widespread: false, key: term })));
    assert.deepEqual(word('decode-peers'), [{ term: 'decode', widespread: false, key: 'decod' }, { term: 'peers', widespread: false, key: 'peer' }]);
    assert.deepEqual(word('connections'), [{ term: 'connections', widespread: false, key: 'connect' }]);
    assert.deepEqual(word('__'), [{ term: '__', widespread: false, key: '"__"' }], 'no index term: matches nothing, as FTS5');
    // Pieces that do not make the word's terms one each (a cut this split does not share with unicode61).
    assert.deepEqual(fillWord('a_b', ['a', 'b'], ['a_b'], [['a', 'b']], none), [{ term: 'a_b', widespread: false, key: '"a_b"' }]);
    assert.deepEqual(fillWord('ab_c', ['ab', 'c'], ['ab', 'c'], [['ab'], ['d']], none), [{ term: 'ab_c', widespread: false, key: '"ab_c"' }]);
    assert.deepEqual(fillWord('x_y', ['x', 'y'], ['x', 'y'], [['x'], ['y']], (terms) => terms[0] === 'y').map((t) => t.widespread), [false, true]);
  });

  it('follows another connection’s writes: new memories past its bits, a word taken out or put in, memories deleted', () => {
    const { db, otherDb, resident, other } = stores();
    const ids = fill(resident);
    const sets = prefilled(db, resident);
    const before = sets.size.bytes;
    // Rowids far past the bits the sets were built with.
    fill(other, 700, 300);
    const edited = other.get(ids[10]!)!;
    other.update({ ...edited, body: 'now only delta', why: null });
    const gained = other.get(ids[11]!)!;
    other.update({ ...gained, body: `${gained.body} beta gamma decode_peer zeta münchen` });
    const listed = other.get(ids[41]!)!;
    other.update({ ...listed, body: 'alpha without the rest' });
    new LifecycleStore(otherDb, memoryValue).purge([ids[0]!, ids[4]!, ids[82]!, ids[699]!]);
    assertSameAsFts(sets, otherDb);
    assertSameAsFts(prefilled(db, resident, 3), otherDb);
    assert.ok(sets.size.bytes > before, 'the sets grew for the new rowids');
    assert.equal(sets.pendingCount, 0, 'brought up to date, not built again');
    // And once more after a write of the resident connection itself.
    resident.add({ kind: 'note', title: 'Newest', body: 'alpha beta gamma decode_peer München', source: 'user' });
    assertSameAsFts(sets, otherDb);
  });

  it('builds a set again after more changes than it brings up to date, and takes no more words than its budget holds', () => {
    const { db, otherDb, resident, other } = stores();
    fill(resident);
    const sets = prefilled(db, resident);
    fill(other, 700, 2100);
    assert.equal(sets.newest(fillWords(['alpha', 'beta']), 'AND', 10), null, 'too many changes: built again');
    assert.equal(sets.pendingCount, 2);
    while (sets.buildPending());
    assert.deepEqual(sets.newest(fillWords(['alpha', 'beta']), 'AND', 10), fromFts(otherDb, ['alpha', 'beta'], 'AND', 10));

    // A set of 2,800 memories is 88 words of 4 bytes: a budget of two.
    const small = new TermMatchSets(db, new MemoryChangeLog(db), () => resident.generation(), { budgetBytes: 88 * 4 * 2 });
    assert.equal(small.prefill(() => SET_TERMS), 2);
    while (small.buildPending());
    assert.deepEqual(small.size, { sets: 2, bytes: 88 * 4 * 2, pending: 0 });
    assert.deepEqual(small.newest(fillWords(['beta', 'alpha']), 'OR', 5), fromFts(otherDb, ['beta', 'alpha'], 'OR', 5));
    assert.equal(small.newest(fillWords(['gamma']), 'OR', 5), null, 'a word past the budget is left to FTS5');
  });

  it('gives up what is queued when a build fails, so the server says so once', () => {
    const { db, resident } = stores();
    fill(resident, 0, 40);
    const sets = new TermMatchSets(db, new MemoryChangeLog(db), () => resident.generation());
    assert.equal(sets.prefill(() => SET_TERMS), SET_TERMS.length);
    db.close();
    assert.throws(() => sets.buildPending(), /not open/);
    assert.equal(sets.pendingCount, 0);
    assert.equal(sets.buildPending(), false);
  });

  it('is filled with the words the term counts find in the most memories, as recall reads them in the memory server', () => {
    const { otherDb, resident, other } = stores();
    fill(resident);
    for (const { terms, operator, limit } of [...QUERIES, ...FOR_FTS5]) {
      assert.deepEqual(resident.reads.newestTextMatches(fillWords(terms), operator, limit), fromFts(otherDb, terms, operator, limit), 'FTS5 before the sets');
    }
    assert.equal(resident.prefillTermSets(), 0, 'no count yet');
    resident.termStats.recount();
    // alpha, row (every title), beta, gamma, decod, peer, becaus (every 7th): in a 32nd of 700 or
    // more. Porter makes another term of becaus itself; `because` makes becaus.
    assert.equal(resident.prefillTermSets(), 7);
    assert.equal(resident.prefillTermSets(), 0, 'once');
    while (resident.reads.buildPendingTermSet());
    assert.deepEqual(resident.reads.termSetSize, { sets: 7, bytes: resident.reads.termSetSize!.bytes, pending: 0 });
    for (const { terms, operator, limit } of [...QUERIES, ...FOR_FTS5]) {
      assert.deepEqual(resident.reads.newestTextMatches(fillWords(terms), operator, limit), fromFts(otherDb, terms, operator, limit), terms.join(` ${operator} `));
    }
    resident.reads.dropTermSets();
    assert.deepEqual(resident.reads.termSetSize, { sets: 0, bytes: 0, pending: 0 });
    assert.equal(resident.prefillTermSets(), 7, 'and fills them again when asked');
    assert.equal(other.prefillTermSets(), 0, 'a short command keeps no sets');
    assert.equal(other.reads.buildPendingTermSet(), false);
    assert.equal(other.reads.termSetSize, null);
  });
});
