import type { SqliteDatabase } from './database';
import { ftsPhrase, ftsQueryOf, ftsQueryOfWords, type TermOperator } from './ftsQuery';
import { bitsetOfRowids, hasBit, newestInEvery } from './textIndex/bitsets';
import { lazyStatements } from './lazyStatements';
import type { MemoryChangeLog } from './memoryChangeLog';

/**
 * A term of one of recall's fills; `widespread` when the store's term counts find it in a 32nd of
 * the memories or more: FTS5 then walks a long doclist for it, and a bitset is no larger than a
 * list of its rowids would be.
 */
export interface FillTerm {
  readonly term: string;
  readonly widespread: boolean;
  /** What its set is kept under: the one index term it makes (`tracking` → `track`), so its forms share one. */
  readonly key: string;
}

/**
 * A word of one of recall's fills: the terms memories must all have for it. A word FTS5 makes
 * several index terms of (`refresh_default_map`) is each of them, in any order, as the in-memory
 * index matches it (recall/indexTextSearch.ts), not a phrase: for a phrase FTS5 reads every
 * position of its terms, 25–50 ms a fill at 1,000,000 memories when they are common, where each
 * term alone may have a set.
 */
export type FillWord = readonly FillTerm[];

/** A term's set key: its index term when it makes one, else its phrase (index terms hold no quotes). */
export function termSetKey(term: string, indexTerms: readonly string[]): string {
  return indexTerms.length === 1 ? indexTerms[0]! : ftsPhrase(term);
}

/** Where unicode61 may cut a word into tokens; fillWord checks the pieces with FTS5's own tokenizer. */
const TOKEN_SEPARATORS = /[^\p{L}\p{N}\p{M}\p{Co}]+/u;

/** The pieces FTS5 may make index terms of (`refresh_default_map` → refresh, default, map). */
export function wordPieces(word: string): string[] {
  return word.split(TOKEN_SEPARATORS).filter(Boolean);
}

/**
 * `word` as a fill asks for it: itself when it makes one index term (or none), else its pieces
 * (wordPieces), each making one of its index terms, in order, as FTS5 makes them (`pieceTerms`);
 * a word whose pieces do not stays one phrase. `widespread` tells whether index terms are
 * (their rarest) in a 32nd of the memories or more.
 */
export function fillWord(
  word: string,
  indexTerms: readonly string[],
  pieces: readonly string[],
  pieceTerms: readonly (readonly string[])[],
  widespread: (indexTerms: readonly string[]) => boolean,
): FillWord {
  const split = indexTerms.length > 1 && pieces.length === indexTerms.length && pieceTerms.every((terms, i) => terms.length === 1 && terms[0] === indexTerms[i]);
  if (!split) return [{ term: word, widespread: widespread(indexTerms), key: termSetKey(word, indexTerms) }];
  return pieces.map((piece, i) => ({ term: piece, widespread: widespread([indexTerms[i]!]), key: indexTerms[i]! }));
}

/** The share of memories (one in this many) from which a term is widespread. */
export const WIDESPREAD_SHARE = 32;

/** At 1,000,000 memories a set is 125 KB: 335 sets, and the bench's store has 307 widespread words. */
const BUDGET_BYTES = 40 * 1024 * 1024;
/** Rows of a fill's other words stepped through one by one before the rest is read at once. */
const STEPPED_ROWS = 1000;
/**
 * Past this many memories changed since a set was current, the set is built again rather than
 * brought up to date (an import, archiving thousands).
 */
const SYNC_ROWS_MAX = 2000;

interface TermSet {
  /** The FTS5 query whose matches these are. */
  readonly query: string;
  /** A bit per rowid. */
  readonly bits: Uint32Array;
  /** The store's generation the set is current with. */
  readonly generation: number;
}

/**
 * A bit per memory for the widespread words of recall's fills (recall/textSearch.ts) in a store
 * too large for the in-memory index: FTS5 walks the whole doclists of an AND of common words that
 * meet in few memories (10–60 ms at 1,000,000), where these sets AND 32 memories a step and the
 * fill's other words (rarer ones, and compound words, which FTS5 searches as phrases) come from
 * FTS5 newest first. The sets are of the index terms the term counts find in a 32nd of the
 * memories or more, built once in the background (`prefill`, `buildPending`: one FTS5 query
 * each), each exactly FTS5's matches of its term, and brought up to date from the change log by
 * FTS5 itself, the changed memories put in a temporary table with memory_fts's tokenizer. Not
 * built when a query first meets a word: a build takes the server's thread for up to ~150 ms, in
 * the middle of the requests that met it (docs/decisions.md).
 */
export class TermMatchSets {
  /** By key (FillTerm.key), least recently used first. */
  private readonly kept = new Map<string, TermSet>();
  private bytes = 0;
  /** Key → the FTS5 query of its set. */
  private readonly pending = new Map<string, string>();
  private prefilled = false;
  private readonly statements;
  private changedTableReady = false;
  private readonly budgetBytes: number;
  private readonly steppedRows: number;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly changeLog: MemoryChangeLog,
    private readonly generation: () => number,
    options: { readonly budgetBytes?: number; readonly steppedRows?: number } = {},
  ) {
    this.budgetBytes = options.budgetBytes ?? BUDGET_BYTES;
    this.steppedRows = options.steppedRows ?? STEPPED_ROWS;
    this.statements = lazyStatements({
      matches: () => db.prepare('SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rowid').pluck(),
      newest: () => db.prepare('SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rowid DESC').pluck(),
      newestBelow: () => db.prepare('SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? AND rowid < ? ORDER BY rowid DESC').pluck(),
      newestLimited: () => db.prepare('SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rowid DESC LIMIT ?').pluck(),
      highestRowid: () => db.prepare('SELECT max(rowid) FROM memories').pluck(),
      // What memory_fts indexed, read from memories (schema v12 keeps no copy in the index).
      texts: () => db.prepare("SELECT rowid, title, body, coalesce(why, '') AS why, fts_tags AS tags FROM memories WHERE rowid IN (SELECT value FROM json_each(?))"),
    });
  }

  /**
   * The newest `limit` memories having every word (AND) or any (OR), newest first: what FTS5's
   * `ORDER BY rowid DESC LIMIT` gives for ftsQueryOfWords. Null when no widespread term has a
   * set: FTS5 answers.
   */
  newest(words: readonly FillWord[], operator: TermOperator, limit: number): number[] | null {
    if (limit <= 0) return null;
    if (operator === 'AND') return this.newestWithEvery(words.flat(), limit);
    const withSets = words.filter((word) => word.some((t) => this.hasSet(t)));
    if (!withSets.length) return null;
    const rest = words.filter((word) => !withSets.includes(word));
    const found = new Set<number>(rest.length ? (this.statements.newestLimited.all(ftsQueryOfWords(rest.map(termsOf), 'OR'), limit) as number[]) : []);
    for (const word of withSets) {
      const newest = this.newestWithEvery(word, limit);
      if (!newest) return null;
      for (const rowid of newest) found.add(rowid);
    }
    return [...found].sort((a, b) => b - a).slice(0, limit);
  }

  /** The newest `limit` memories with every term, or null when none has a set (or the sets were dropped). */
  private newestWithEvery(terms: readonly FillTerm[], limit: number): number[] | null {
    const withSets = terms.filter((t) => this.hasSet(t));
    if (!withSets.length) return null;
    const sets = this.current(withSets.map((t) => t.key));
    if (!sets) return null;
    // The others from FTS5: rarer terms, widespread ones without a set, a word kept as a phrase.
    const rest = terms.filter((t) => !withSets.includes(t)).map((t) => t.term);
    if (!rest.length) return newestInEvery(sets, limit);
    // The other terms' matches newest first, as long as it takes to find `limit` in every set:
    // stepped through for the first rows (most fills end there), then read at once, ~3× faster a row.
    const query = ftsQueryOf(rest, 'AND');
    const out: number[] = [];
    let read = 0;
    let last = -1;
    for (const rowid of this.statements.newest.iterate(query) as IterableIterator<number>) {
      last = rowid;
      if (sets.every((bits) => hasBit(bits, rowid)) && out.push(rowid) >= limit) return out;
      if (++read === this.steppedRows) break;
    }
    if (read < this.steppedRows) return out;
    for (const rowid of this.statements.newestBelow.all(query, last) as number[]) {
      if (sets.every((bits) => hasBit(bits, rowid)) && out.push(rowid) >= limit) break;
    }
    return out;
  }

  private hasSet(term: FillTerm): boolean {
    return term.widespread && this.kept.has(term.key);
  }

  /**
   * Queues sets for index terms found in the most memories (most first), once: `widespread` is
   * read only until it gives some (a store not yet counted gives none); returns how many. Each comes with a word FTS5
   * makes that index term alone of, so its phrase matches exactly the memories holding the term.
   * Only as many as the budget holds at this store's size (its highest rowid).
   */
  prefill(widespread: () => readonly { readonly indexTerm: string; readonly word: string }[]): number {
    if (this.prefilled) return 0;
    const terms = widespread();
    if (!terms.length) return 0;
    this.prefilled = true;
    const highestRowid = (this.statements.highestRowid.get() as number | null) ?? 0;
    const queued = terms.slice(0, Math.floor(this.budgetBytes / (((highestRowid >>> 5) + 1) * 4)));
    for (const { indexTerm, word } of queued) this.pending.set(indexTerm, ftsPhrase(word));
    return queued.length;
  }

  /** Forgets every set and what was queued (the store is small enough for the in-memory index again). */
  clear(): void {
    this.kept.clear();
    this.pending.clear();
    this.bytes = 0;
    this.prefilled = false;
  }

  /** Builds the set of one queued term (one FTS5 query); false when none is queued. */
  buildPending(): boolean {
    const next = this.pending.entries().next().value;
    if (next === undefined) return false;
    const [key, query] = next;
    this.pending.delete(key);
    if (this.kept.has(key)) return true;
    // Read first: a write landing before the query is in the set and applied again on sync, which is harmless.
    let generation: number;
    let rowids: number[];
    try {
      generation = this.generation();
      rowids = this.statements.matches.all(query) as number[];
    } catch (error) {
      // A closed or broken database: the job says so once, not once a term; FTS5 answers.
      this.pending.clear();
      throw error;
    }
    // A bit per rowid: rowids past 2^31 (never assigned by the store) are left to FTS5.
    if (rowids.length && rowids[rowids.length - 1]! >= 2 ** 31) return true;
    this.keep(key, { query, bits: bitsetOfRowids(rowids), generation });
    return true;
  }

  /** Terms queued for a set. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Sets kept, their bytes and the terms queued, for the bench. */
  get size(): { readonly sets: number; readonly bytes: number; readonly pending: number } {
    return { sets: this.kept.size, bytes: this.bytes, pending: this.pending.size };
  }

  /** The terms' sets brought to the store's generation, or null when they had to be dropped. */
  private current(keys: readonly string[]): Uint32Array[] | null {
    const now = this.generation();
    const stale = keys.filter((key) => this.kept.get(key)!.generation !== now);
    if (stale.length) {
      const oldest = Math.min(...stale.map((key) => this.kept.get(key)!.generation));
      const changed = this.changeLog.changedBetween(oldest, now);
      if (changed === null || changed.length > SYNC_ROWS_MAX) {
        for (const key of stale) this.requeue(key);
        return null;
      }
      this.applyChanges(stale, changed, now);
    }
    return keys.map((key) => {
      const set = this.kept.get(key)!;
      // Most recently used last.
      this.kept.delete(key);
      this.kept.set(key, set);
      return set.bits;
    });
  }

  /**
   * Puts the changed memories' current text (none for a deleted one) in a temporary FTS5 table
   * with memory_fts's columns and tokenizer, and takes each set's membership of them from it:
   * bits cleared, then set for those that match. `changed` holds every memory changed since the
   * oldest of the sets.
   */
  private applyChanges(keys: readonly string[], changed: readonly number[], now: number): void {
    this.prepareChangedTable();
    const db = this.db;
    db.transaction(() => {
      db.prepare('DELETE FROM temp.engram_changed_text').run();
      const insert = db.prepare('INSERT INTO temp.engram_changed_text (rowid, title, body, why, tags) VALUES (@rowid, @title, @body, @why, @tags)');
      if (changed.length) for (const row of this.statements.texts.all(JSON.stringify(changed))) insert.run(row);
      const matching = db.prepare('SELECT rowid FROM temp.engram_changed_text WHERE engram_changed_text MATCH ?').pluck();
      for (const key of keys) {
        const { query } = this.kept.get(key)!;
        let bits = this.kept.get(key)!.bits;
        for (const rowid of changed) if (rowid >>> 5 < bits.length) bits[rowid >>> 5]! &= ~(1 << (rowid & 31));
        for (const rowid of matching.all(query) as number[]) {
          if (rowid >>> 5 >= bits.length) bits = grown(bits, rowid);
          bits[rowid >>> 5]! |= 1 << (rowid & 31);
        }
        this.keep(key, { query, bits, generation: now });
      }
      db.prepare('DELETE FROM temp.engram_changed_text').run();
    })();
  }

  private prepareChangedTable(): void {
    if (this.changedTableReady) return;
    // memory_fts's columns and tokenizer (migrations 001, 012); temp tables live with this connection.
    this.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.engram_changed_text USING fts5 (title, body, why, tags, tokenize = 'porter unicode61')");
    this.changedTableReady = true;
  }

  private requeue(key: string): void {
    const set = this.kept.get(key);
    if (!set) return;
    this.kept.delete(key);
    this.bytes -= set.bits.byteLength;
    this.pending.set(key, set.query);
  }

  private keep(key: string, set: TermSet): void {
    const old = this.kept.get(key);
    if (old) {
      this.kept.delete(key);
      this.bytes -= old.bits.byteLength;
    }
    this.kept.set(key, set);
    this.bytes += set.bits.byteLength;
    for (const [oldest, { bits }] of this.kept) {
      if (this.bytes <= this.budgetBytes || oldest === key) break;
      this.kept.delete(oldest);
      this.bytes -= bits.byteLength;
    }
  }
}

/** `bits` with room for `rowid` and an eighth more, for the memories added after it. */
function grown(bits: Uint32Array, rowid: number): Uint32Array {
  const words = (rowid >>> 5) + 1;
  const larger = new Uint32Array(Math.max(words, Math.ceil(bits.length * 1.125)));
  larger.set(bits);
  return larger;
}

function termsOf(word: FillWord): string[] {
  return word.map((t) => t.term);
}
