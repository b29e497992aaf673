import type { SqliteDatabase } from '../database';
import { lazyStatements } from '../lazyStatements';
import type { MemoryChangeLog } from '../memoryChangeLog';
import { GENERATION_SQL } from '../memoryChangeLog';
import { Stemmer } from './stemmer';
import { type IndexedRow, TextIndex } from './textIndex';
import type { TextIndexImage } from './textIndexImage';
import { buildTextIndexImage } from './textIndexProcess';

/** Memories read and indexed per slice of a build, between which the server answers requests (~50 ms of work). */
const BUILD_SLICE = 400;
/**
 * More changed memories than this at once (an import into a project the server has open) and
 * the index is built again in the background instead of brought up to date on a request.
 */
const MAX_CHANGES_APPLIED = 2000;
/**
 * Memories changed since the index was packed past which it is built again in the background,
 * and used meanwhile: each one changed is kept apart in growable lists (~1 KB of the server's
 * heap) and its packed postings are skipped at every read of their lists.
 */
const REPACK_AFTER_CHANGES = 2000;
/**
 * Stores with more memories than this get no index: recall asks FTS5, whose pages SQLite's cache
 * and the OS keep, as short commands do. Packed, the index is ~230 bytes a memory of the bench's
 * mix (23 MB at 100,000), so ~230 MB at 1,000,000: most of the server's 250 MB there
 * (docs/performance.md).
 */
export const TEXT_INDEX_ROWS_MAX = 150_000;

/** `fragmented`: ready, with many changes kept apart from its packed lists; built again in the background and used meanwhile. */
export type TextIndexState = 'none' | 'building' | 'ready' | 'fragmented' | 'stale' | 'too large';

/**
 * The memory server's in-memory full-text index (TextIndex) of one store: built in a process of
 * its own after the project opens (textIndexWorker.ts), then brought to the memories' generation
 * on each use from the change log (schema v10): the memories changed since are indexed again.
 * Null until it is ready, when too much changed at once (it is then built again) and in stores
 * too large for it: recall then asks FTS5, as short commands do.
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
      memories: () => db.prepare('SELECT max(rowid) FROM memories').pluck(),
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
    if (this.stateNow !== 'ready' && this.stateNow !== 'fragmented') return;
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
    if (this.stateNow === 'ready' && index.changedSincePacked > REPACK_AFTER_CHANGES) this.stateNow = 'fragmented';
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

  /**
   * Builds it in a process of its own (textIndexWorker.ts) over `databaseFile`, this store's
   * database: the build's garbage never enters this process. A fragmented index is used until
   * the new one replaces it. Memories written meanwhile are indexed again here at the end.
   * Resolves to the memories indexed (0 when there was nothing to do).
   */
  async buildElsewhere(databaseFile: string): Promise<number> {
    if (this.stateNow === 'building' || this.stateNow === 'ready') return 0;
    if (this.tooLarge()) return 0;
    this.stateNow = 'building';
    try {
      const image = await buildTextIndexImage(databaseFile);
      if (!image) {
        this.index = null;
        this.stateNow = 'too large';
        return 0;
      }
      return this.adopt(new TextIndex((runs) => this.stemmer.terms(runs), image));
    } catch (error) {
      this.stateNow = this.index ? 'fragmented' : 'stale';
      throw error;
    }
  }

  /** The ready index packed (the build process hands it over so), null when none is ready. */
  image(): TextIndexImage | null {
    return this.index?.image() ?? null;
  }

  /** Builds it at once (the bench, tests, the build process). */
  buildNow(): number {
    const slices = this.slices();
    for (let step = slices.next(); ; step = slices.next()) if (step.done) return step.value;
  }

  private *slices(): Generator<void, number> {
    if (this.stateNow === 'building' || this.stateNow === 'ready') return 0;
    if (this.tooLarge()) return 0;
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
      index.generation = generation;
      index.compact();
      return this.adopt(index);
    } catch (error) {
      this.stateNow = this.index ? 'fragmented' : 'stale';
      throw error;
    }
  }

  /** Whether the store has too many memories for an index (and the state says so). */
  private tooLarge(): boolean {
    // Rowids count memories ever written, purged ones too: an estimate that errs on the large side.
    if (((this.statements.memories.get() as number | null) ?? 0) <= TEXT_INDEX_ROWS_MAX) return false;
    this.index = null;
    this.stateNow = 'too large';
    return true;
  }

  /** Makes a built index the one in use, brought up to the memories written during its build. */
  private adopt(index: TextIndex): number {
    this.index = index;
    this.stateNow = 'ready';
    // Written during the build: indexed again now (or, if that is too much, built again later).
    this.at(this.statements.generation.get() as number);
    return index.rows;
  }

  private apply(index: TextIndex, changed: readonly number[]): void {
    const rows = this.statements.byRowids.all({ rowids: JSON.stringify(changed) }) as IndexedRow[];
    const present = new Set(rows.map((r) => r.rowid));
    for (const rowid of changed) if (!present.has(rowid)) index.remove(rowid);
    index.put(rows);
  }
}
