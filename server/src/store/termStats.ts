import type { SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';
import { GENERATION_SQL } from './memoryChangeLog';
import { Stemmer } from './textIndex/stemmer';

/** Below this many memories FTS5 ranks every match in about a millisecond: no count is kept. */
export const TERM_STATS_MIN_ROWS = 2000;
/** A count is redone once the memories changed this much (share of the rows counted). */
const STALE_SHARE = 0.1;
/** Terms read from fts5vocab per slice of a count made in the background. */
const RECOUNT_SLICE = 500;
/** Endings tried on an index term for a word that makes it (TermStats.widespread), the term itself first. */
const WORD_ENDINGS = ['', 'e', 's', 'es', 'ing', 'ed'];
/** Words whose index terms are kept: a word is a few dozen bytes, and each one missed costs a statement. */
const STEMS_KEPT = 50_000;

export interface TermFrequencies {
  /** Rows in the full-text index when counted. */
  readonly rows: number;
  /** Memories containing each index term asked for; a term the count did not see is in none. */
  readonly docs: ReadonlyMap<string, number>;
}

/**
 * How many memories each full-text index term occurs in (term_stats, schema v9), counted from
 * fts5vocab now and then: a count of 100,000 memories reads every doclist (~3 s), so the server
 * does it in slices when the store changed by a tenth since, and `engram import` after a bulk load.
 * Counts may lag a little: recall uses them to choose which terms to search, never to decide
 * whether a memory exists.
 */
export class TermStats {
  private readonly statements;
  /** Query word → its index terms, as FTS5's porter tokenizer makes them (kept per process). */
  private readonly stemCache = new Map<string, readonly string[]>();
  private readonly stemmer: Stemmer;

  constructor(private readonly db: SqliteDatabase) {
    this.stemmer = new Stemmer(db);
    this.statements = lazyStatements({
      state: () => db.prepare('SELECT rows, generation FROM term_stats_state WHERE id = 1'),
      docs: () => db.prepare('SELECT term, docs FROM term_stats WHERE term IN (SELECT value FROM json_each(@terms))'),
      mostFound: () => db.prepare('SELECT term FROM term_stats WHERE docs * @share >= (SELECT rows FROM term_stats_state WHERE id = 1) ORDER BY docs DESC LIMIT @limit').pluck(),
      rows: () => db.prepare('SELECT count(*) FROM memories').pluck(),
      clear: () => db.prepare('DELETE FROM term_stats'),
      insert: () => db.prepare('INSERT INTO term_stats (term, docs) VALUES (@term, @docs)'),
      setState: () =>
        db.prepare(`INSERT INTO term_stats_state (id, rows, generation, counted_at) VALUES (1, @rows, @generation, @now)
          ON CONFLICT (id) DO UPDATE SET rows = excluded.rows, generation = excluded.generation, counted_at = excluded.counted_at`),
      generation: () => db.prepare(GENERATION_SQL).pluck(),
    });
  }

  /** The index terms of each word, exactly as FTS5 tokenizes it (store/textIndex/stemmer.ts). */
  stems(words: readonly string[]): (readonly string[])[] {
    const missing = [...new Set(words.filter((w) => !this.stemCache.has(w)))];
    if (missing.length) {
      if (this.stemCache.size + missing.length > STEMS_KEPT) this.stemCache.clear();
      const terms = this.stemmer.terms(missing);
      missing.forEach((word, i) => this.stemCache.set(word, terms[i]!));
    }
    return words.map((w) => this.stemCache.get(w) ?? []);
  }

  /** Counts for these index terms, or null when no count was ever taken (a small store). */
  frequencies(terms: readonly string[]): TermFrequencies | null {
    const state = this.statements.state.get() as { rows: number } | undefined;
    if (!state) return null;
    const docs = new Map<string, number>();
    for (const row of this.statements.docs.all({ terms: JSON.stringify([...new Set(terms)]) }) as { term: string; docs: number }[]) docs.set(row.term, row.docs);
    return { rows: state.rows, docs };
  }

  /**
   * Index terms found in at least one memory in `share` by the last count, most found first, each
   * with a word FTS5 makes that term alone of: the term itself when porter leaves it as it is
   * (`track`), else the first of a few endings that gives it back (`releas` ← `release`). A term
   * none gives back is left out.
   */
  widespread(share: number, limit: number): { readonly indexTerm: string; readonly word: string }[] {
    const terms = this.statements.mostFound.all({ share, limit }) as string[];
    const candidates = terms.map((term) => WORD_ENDINGS.map((ending) => term + ending));
    const stems = this.stems(candidates.flat());
    const found: { indexTerm: string; word: string }[] = [];
    terms.forEach((indexTerm, t) => {
      const at = WORD_ENDINGS.findIndex((_, e) => {
        const made = stems[t * WORD_ENDINGS.length + e]!;
        return made.length === 1 && made[0] === indexTerm;
      });
      if (at >= 0) found.push({ indexTerm, word: candidates[t]![at]! });
    });
    return found;
  }

  /** Whether a count is due: never taken for a store past TERM_STATS_MIN_ROWS, or a tenth of it changed since. */
  isStale(): boolean {
    const state = this.statements.state.get() as { rows: number; generation: number } | undefined;
    if (!state) return (this.statements.rows.get() as number) >= TERM_STATS_MIN_ROWS;
    const changes = (this.statements.generation.get() as number) - state.generation;
    return changes > Math.max(TERM_STATS_MIN_ROWS / 10, STALE_SHARE * state.rows);
  }

  /** Counts every term at once (a CLI after a bulk load). */
  recount(now: number = Date.now()): void {
    const generation = this.statements.generation.get() as number;
    const counts = this.db.prepare(`SELECT term, doc AS docs FROM ${this.vocabulary()}`).all() as { term: string; docs: number }[];
    this.store(counts, generation, now);
  }

  /**
   * Counts every term in slices, calling `pause` between them so a server keeps answering; the
   * counts replace the old ones in one short transaction at the end.
   */
  async recountInSlices(pause: () => Promise<void>, now: () => number = Date.now): Promise<void> {
    const vocabulary = this.vocabulary();
    // Changes made while the slices are read count towards the next recount.
    const generation = this.statements.generation.get() as number;
    const counts: { term: string; docs: number }[] = [];
    let after = '';
    for (;;) {
      const slice = this.db.prepare(`SELECT term, doc AS docs FROM ${vocabulary} WHERE term > @after ORDER BY term LIMIT ${RECOUNT_SLICE}`).all({ after }) as { term: string; docs: number }[];
      counts.push(...slice);
      if (slice.length < RECOUNT_SLICE) break;
      after = slice[slice.length - 1]!.term;
      await pause();
    }
    this.store(counts, generation, now());
  }

  private vocabulary(): string {
    this.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.engram_term_docs USING fts5vocab(main, memory_fts, 'row')");
    return 'temp.engram_term_docs';
  }

  private store(counts: readonly { term: string; docs: number }[], generation: number, now: number): void {
    this.db.transaction(() => {
      const rows = this.statements.rows.get() as number;
      this.statements.clear.run();
      for (const count of counts) this.statements.insert.run(count);
      this.statements.setState.run({ rows, generation, now });
    })();
  }
}
