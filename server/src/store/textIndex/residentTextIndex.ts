import type { SqliteDatabase } from '../database';
import { lazyStatements } from '../lazyStatements';
import type { MemoryChangeLog } from '../memoryChangeLog';
import { GENERATION_SQL } from '../memoryChangeLog';
import { Stemmer } from './stemmer';
import { type IndexedRow, TextIndex } from './textIndex';

/** Memories read and indexed per slice of a build, between which the server answers requests (~50 ms of work). */
const BUILD_SLICE = 400;
/**
 * More changed memories than this at once (an import into a project the server has open) and
 * the index is built again in the background instead of brought up to date on a request.
 */
const MAX_CHANGES_APPLIED = 2000;

export type TextIndexState = 'none' | 'building' | 'ready' | 'stale';

/**
 * The memory server's in-memory full-text index (TextIndex) of one store: built in slices after
 * the project opens, then brought to the memories' generation on each use from the change log
 * (schema v10): the memories changed since are indexed again. Null until it is ready, and when
 * too much changed at once (it is then built again): recall then asks FTS5, as short commands do.
 */
export class ResidentTextIndex {
  private index: TextIndex | null = null;
  private stateNow: TextIndexState = 'none';
  private readonly stemmer: Stemmer;
  private readonly statements;

  constructor(
    db: SqliteDatabase,
    private readonly changeLog: MemoryChangeLog,
  ) {
    this.stemmer = new Stemmer(db);
    this.statements = lazyStatements({
      // What memory_fts indexed, read from memories (schema v12 keeps no copy in the index).
      after: () => db.prepare(`SELECT rowid, title, body, coalesce(why, '') AS why, fts_tags AS tags FROM memories WHERE rowid > @after ORDER BY rowid LIMIT ${BUILD_SLICE}`),
      byRowids: () => db.prepare("SELECT rowid, title, body, coalesce(why, '') AS why, fts_tags AS tags FROM memories WHERE rowid IN (SELECT value FROM json_each(@rowids))"),
      generation: () => db.prepare(GENERATION_SQL).pluck(),
    });
  }

  get state(): TextIndexState {
    return this.stateNow;
  }

  /**
   * Drops a ready index, to be built again later (while a history import writes thousands of
   * memories, bringing it up to date on each request would cost more than FTS5 answering).
   */
  drop(): void {
    if (this.stateNow !== 'ready') return;
    this.index = null;
    this.stateNow = 'stale';
  }

  /** The index at `generation`, or null when there is none ready. */
  at(generation: number): TextIndex | null {
    const index = this.index;
    if (!index) return null;
    if (index.generation === generation) return index;
    const changed = this.changeLog.changedBetween(index.generation, generation);
    if (changed === null || changed.length > MAX_CHANGES_APPLIED) {
      this.index = null;
      this.stateNow = 'stale';
      return null;
    }
    this.apply(index, changed);
    index.generation = generation;
    return index;
  }

  /**
   * Builds the index, calling `pause` between slices so a server keeps answering; memories
   * written meanwhile are indexed again at the end. Resolves to the memories indexed (0 when a
   * build was already done or under way).
   */
  async build(pause: () => Promise<void>): Promise<number> {
    const slices = this.slices();
    for (let step = slices.next(); ; step = slices.next()) {
      if (step.done) return step.value;
      await pause();
    }
  }

  /** Builds it at once (the bench, tests). */
  buildNow(): number {
    const slices = this.slices();
    for (let step = slices.next(); ; step = slices.next()) if (step.done) return step.value;
  }

  private *slices(): Generator<void, number> {
    if (this.stateNow === 'building' || this.stateNow === 'ready') return 0;
    this.stateNow = 'building';
    try {
      const index = new TextIndex((runs) => this.stemmer.terms(runs));
      const generation = this.statements.generation.get() as number;
      let after = 0;
      for (;;) {
        const rows = this.statements.after.all({ after }) as IndexedRow[];
        index.put(rows);
        if (rows.length < BUILD_SLICE) break;
        after = rows[rows.length - 1]!.rowid;
        yield;
      }
      index.compact();
      index.generation = generation;
      this.index = index;
      this.stateNow = 'ready';
      // Written during the build: indexed again now (or, if that is too much, built again later).
      this.at(this.statements.generation.get() as number);
      return index.rows;
    } catch (error) {
      this.stateNow = 'stale';
      throw error;
    }
  }

  private apply(index: TextIndex, changed: readonly number[]): void {
    const rows = this.statements.byRowids.all({ rowids: JSON.stringify(changed) }) as IndexedRow[];
    const present = new Set(rows.map((r) => r.rowid));
    for (const rowid of changed) if (!present.has(rowid)) index.remove(rowid);
    index.put(rows);
  }
}
