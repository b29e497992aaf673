import { Redactor } from '../secrets/redact';
import type { Memory, MemoryId, MemoryKind, MemoryStatus, NewMemory, PinLevel } from '../memory/types';
import { MEMORY_KINDS } from '../memory/types';
import type { ImportOutcome, ImportTransaction } from './bulkImport';
import { prepareMemorySelect, rowToMemory, type MemoryRow } from './memoryRows';
import type { PreparedMemory } from './preparedImport';
import type { SqliteDatabase } from './database';
import { GenerationMap } from './generationMap';
import { lazyStatements } from './lazyStatements';
import { GENERATION_SQL, GENERATION_WITH_USAGE_SQL, MemoryChangeLog } from './memoryChangeLog';
import { MemoryImports } from './memoryImports';
import { MemoryWrites, type MemoryLink, type MemoryRelation } from './memoryWrites';
import { ConstraintGeneration } from './constraintGeneration';
import { FileMemoryTallies, type FileMemoryTally, type SymbolMemoryTally } from './fileMemoryTally';
import { ListingStates } from './listingStates';
import { RecallReads } from './recallReads';
import { WIDESPREAD_SHARE } from './termMatchSets';
import { TermStats } from './termStats';

/** Hard pins first: the order every list of constraints is shown in. */
const PIN_ORDER: Readonly<Record<PinLevel, number>> = { hard: 0, soft: 1, none: 2 };

/** Widespread words whose sets are queued at most (the sets' budget takes fewer at 1,000,000 memories). */
const PREFILL_TERMS_MAX = 512;

export type { FileMemoryTally, SymbolMemoryTally } from './fileMemoryTally';

export type { CandidateRow } from './candidateRows';

export interface MemoryCounts {
  readonly total: number;
  readonly byStatus: Readonly<Record<MemoryStatus, number>>;
  readonly byKind: Readonly<Record<MemoryKind, number>>;
  readonly pinned: { readonly soft: number; readonly hard: number };
  readonly sessions: number;
}

export type { ImportOutcome } from './bulkImport';
export type { MemoryLink, MemoryRelation } from './memoryWrites';

/**
 * The only place that reads and writes memories with SQL. Every write is one transaction, so a
 * memory and its tags, anchor and index entry appear together or not at all.
 */
export class MemoryStore {
  private readonly statements;
  /** The read model recall uses: rowids, scoring rows, texts, neighbours, the full-text index. */
  readonly reads: RecallReads;
  private readonly writes: MemoryWrites;
  private readonly imports: MemoryImports;
  /**
   * Project-wide and pinned constraints, asked for by every hook and every file's governing
   * constraints: at 100,000 memories each read took 3–5 ms. Callers must not change them.
   */
  private readonly constraintLists = new GenerationMap<string, readonly Memory[]>(8);
  private termStatsOfStore: TermStats | undefined;
  private readonly tallies: FileMemoryTallies;
  private readonly constraintChanges: ConstraintGeneration;
  /** The memory server's: each memory's listing state, for CodeLens tallies (listingStates.ts). */
  private readonly listingStates: ListingStates | null;

  /** `resident`: a long-running process keeps every memory's scoring row in memory (RowCaches). */
  constructor(
    private readonly db: SqliteDatabase,
    redactor: Redactor = new Redactor(),
    options: { readonly resident?: boolean } = {},
  ) {
    const changeLog = new MemoryChangeLog(db);
    this.reads = new RecallReads(db, changeLog, () => this.generation(), options.resident ?? false, () => this.constraintGeneration());
    this.listingStates = options.resident ? new ListingStates(db, changeLog, () => this.generation()) : null;
    this.constraintChanges = new ConstraintGeneration(db, changeLog, () => this.generation(), options.resident ?? false);
    this.tallies = new FileMemoryTallies(db, this.listingStates, options.resident ? () => this.generation() : undefined);
    this.writes = new MemoryWrites(db, redactor, (id) => this.get(id));
    this.imports = new MemoryImports(db, redactor, this.writes);
    this.statements = lazyStatements({
      byId: () => prepareMemorySelect(db, `WHERE m.id = ?`),
      bySourceRef: () => prepareMemorySelect(db, `WHERE m.source_ref = ?`),
      // A miss costs ~1 µs here and ~30 µs through the whole-memory select (its joins and subqueries
      // are set up even for no row): an ingest asks for every record's memory before adding it.
      hasSourceRef: () => db.prepare('SELECT 1 FROM memories WHERE source_ref = ?').pluck(),
      bySourceRefPrefix: () => prepareMemorySelect(db, `WHERE m.source_ref >= @prefix AND m.source_ref < @prefix || char(1114111) ORDER BY m.source_ref`),
      all: () => prepareMemorySelect(db, `ORDER BY m.rowid`),
      // Without ANALYZE statistics SQLite's planner may drive a query about one file from an index of
      // all active memories (status, kind) and probe the file's rows for each: tens of ms at 100,000
      // memories. `+m.status` (no index for that term) and CROSS JOIN (this join order) keep such
      // queries on the file's own rows.
      // The file's rows checked against the (kind, status) index, which holds the rowid: reading
      // each of a busy file's memories to see its kind took ~100–190 ms at 1,000,000 (28,000 rows), ~15 ms this way.
      constraintsForFile: () => prepareMemorySelect(db, `WHERE m.rowid IN (SELECT f.memory_rowid FROM memory_files f WHERE f.path = @path
          AND EXISTS (SELECT 1 FROM memories k WHERE k.kind = 'constraint' AND k.status = 'active' AND k.rowid = f.memory_rowid))
        ORDER BY CASE m.pin WHEN 'hard' THEN 0 WHEN 'soft' THEN 1 ELSE 2 END, m.created_at`),
      byRowids: () => prepareMemorySelect(db, 'WHERE m.rowid IN (SELECT value FROM json_each(?))'),
      pinnedConstraints: () => prepareMemorySelect(db, `WHERE m.kind = 'constraint' AND m.status = 'active' AND m.pin = @pin ORDER BY m.created_at LIMIT @limit`),
      anchoredAt: () => prepareMemorySelect(db, `WHERE a.path = @path AND +m.status = 'active' ORDER BY a.start_line`),
      forFile: () => prepareMemorySelect(db, `WHERE +m.status = 'active' AND m.rowid IN (SELECT memory_rowid FROM memory_files WHERE path = @path)
        ORDER BY +m.updated_at DESC LIMIT @limit`),
      recent: () => prepareMemorySelect(db, `WHERE m.status = 'active' ORDER BY m.updated_at DESC LIMIT @limit`),
      latestDiff: () => prepareMemorySelect(db, `WHERE m.kind = 'diff' AND m.status = 'active' AND m.source = @source AND m.updated_at >= @since
          AND m.rowid IN (SELECT memory_rowid FROM memory_files WHERE path = @path)
        ORDER BY m.updated_at DESC LIMIT 1`),
      hasDiffSince: () => db.prepare(`SELECT 1 FROM memories WHERE status = 'active' AND updated_at >= @since AND kind = 'diff' AND source = @source LIMIT 1`).pluck(),
      recentDiffs: () => prepareMemorySelect(db, `WHERE m.kind = 'diff' AND m.status = 'active' AND m.source = @source AND m.updated_at >= @since
          AND m.rowid IN (SELECT memory_rowid FROM memory_files WHERE path = @path)
        ORDER BY m.updated_at DESC LIMIT @limit`),
      // Kept by triggers (migration 017): a read of a few rows, not of every memory.
      countByKindStatusPin: () => db.prepare('SELECT kind, status, pin, n FROM memory_counts WHERE n > 0'),
      countSessions: () => db.prepare('SELECT count(*) AS n FROM sessions'),
      dataVersion: () => db.prepare('PRAGMA data_version').pluck(),
      generation: () => db.prepare(GENERATION_SQL).pluck(),
      generationWithUsage: () => db.prepare(GENERATION_WITH_USAGE_SQL).pluck(),
    });
  }

  add(input: NewMemory, now: number = Date.now()): Memory {
    return this.writes.add(input, now);
  }

  get(id: string): Memory | null {
    const row = this.statements.byId.get(id) as MemoryRow | undefined;
    return row ? rowToMemory(row) : null;
  }

  bySourceRef(sourceRef: string): Memory | null {
    if (this.statements.hasSourceRef.get(sourceRef) === undefined) return null;
    const row = this.statements.bySourceRef.get(sourceRef) as MemoryRow | undefined;
    return row ? rowToMemory(row) : null;
  }

  /** Memories whose `sourceRef` starts with `prefix` (e.g. every import of one folder). */
  bySourceRefPrefix(prefix: string): Memory[] {
    return (this.statements.bySourceRefPrefix.all({ prefix }) as MemoryRow[]).map(rowToMemory);
  }

  /** Every memory, oldest first, streamed so an export never holds the whole database in memory. */
  *all(): Generator<Memory> {
    for (const row of this.statements.all.iterate() as IterableIterator<MemoryRow>) yield rowToMemory(row);
  }

  /** Active constraints tagged with a file: hard pins first. */
  constraintsForFile(path: string): Memory[] {
    return (this.statements.constraintsForFile.all({ path }) as MemoryRow[]).map(rowToMemory);
  }

  /** Active constraints tagged with no file: project-wide ones and glob-scoped ones (`meta.glob`). */
  untaggedConstraints(): readonly Memory[] {
    this.constraintLists.sync(this.constraintGeneration());
    return this.constraintLists.getOrCompute('untagged', () => {
      // The set recall takes for every file, found once for both: finding it checks every
      // constraint's files and anchor (~30 ms at 1,000,000 memories, on a first hover twice).
      const rowids = this.reads.rowidsUntaggedConstraints();
      const rows = rowids.length ? (this.statements.byRowids.all(JSON.stringify(rowids)) as MemoryRow[]) : [];
      return rows
        .map(rowToMemory)
        .filter((m) => m.kind === 'constraint' && m.status === 'active')
        .sort((a, b) => PIN_ORDER[a.pin] - PIN_ORDER[b.pin] || a.createdAt - b.createdAt);
    });
  }

  /** Document frequencies of the full-text index terms (schema v9). */
  get termStats(): TermStats {
    this.termStatsOfStore ??= new TermStats(this.db);
    return this.termStatsOfStore;
  }

  /** Active constraints with a given pin, oldest first. */
  pinnedConstraints(pin: 'hard' | 'soft', limit: number): readonly Memory[] {
    this.constraintLists.sync(this.constraintGeneration());
    return this.constraintLists.getOrCompute(`${pin}:${limit}`, () => (this.statements.pinnedConstraints.all({ pin, limit }) as MemoryRow[]).map(rowToMemory));
  }

  /** Active memories anchored in a file (pinned selections), top to bottom. */
  anchoredAt(path: string): Memory[] {
    return (this.statements.anchoredAt.all({ path }) as MemoryRow[]).map(rowToMemory);
  }

  forFile(path: string, limit: number): Memory[] {
    return (this.statements.forFile.all({ path, limit }) as MemoryRow[]).map(rowToMemory);
  }

  recent(limit: number): Memory[] {
    return (this.statements.recent.all({ limit }) as MemoryRow[]).map(rowToMemory);
  }

  /** Full-text matches as (memory, bm25 rank) pairs, best first; `ftsQuery` must be a safe FTS5 query. */
  search(ftsQuery: string, limit: number): { memory: Memory; rank: number }[] {
    return this.reads.searchRowids(ftsQuery, limit).flatMap((hit) => this.reads.byRowids([hit.rowid]).map((memory) => ({ memory, rank: hit.rank })));
  }

  /** The most recent active diff memory of a file from one source, if it was updated since `since`. */
  latestDiff(path: string, source: Memory['source'], since: number): Memory | null {
    const row = this.statements.latestDiff.get({ path, source, since }) as MemoryRow | undefined;
    return row ? rowToMemory(row) : null;
  }

  /** Whether any file has an active diff memory from `source` updated since `since`: one question for many latestDiff. */
  hasDiffSince(source: Memory['source'], since: number): boolean {
    return this.statements.hasDiffSince.get({ source, since }) !== undefined;
  }

  /** Recent active diff memories of a file from one source, newest first. */
  recentDiffs(path: string, source: Memory['source'], since: number, limit: number): Memory[] {
    return (this.statements.recentDiffs.all({ path, source, since, limit }) as MemoryRow[]).map(rowToMemory);
  }

  /** Records that memory `from` relates to memory `to` (e.g. 'revises'); idempotent; false when either id is unknown. */
  link(from: MemoryId, to: MemoryId, relation: MemoryRelation): boolean {
    return this.writes.link(from, to, relation);
  }

  /** The memories `id` points to, and the memories that point to it, with the relation. */
  links(id: MemoryId): { readonly from: readonly MemoryLink[]; readonly to: readonly MemoryLink[] } {
    return this.writes.links(id);
  }

  /**
   * Follows a renamed file or folder: every memory tagged with `from` (or a path under it) is
   * re-tagged with the new path, anchors included. Returns how many memories changed.
   */
  renamePath(from: string, to: string): number {
    return this.writes.renamePath(from, to);
  }

  /** Replaces a memory's content (same id); returns what was stored, or null when the id is unknown. */
  update(memory: Memory): Memory | null {
    return this.writes.update(memory);
  }

  /** Returns the updated memory, or null when no memory has that id. */
  setPin(id: string, pin: PinLevel, now: number = Date.now()): Memory | null {
    return this.writes.setPin(id, pin, now);
  }

  /**
   * Takes a memory from an export: added when new, replaced when the incoming copy is newer,
   * left alone otherwise — so importing the same file twice changes nothing.
   */
  import(memory: Memory): ImportOutcome {
    return this.imports.import(memory);
  }

  /** `import` for many memories in one transaction (all or nothing). */
  importMany(memories: readonly Memory[]): ImportOutcome[] {
    return this.imports.importMany(memories);
  }

  /** importMany of memories already redacted, with their full-text tags (preparedImport.ts). */
  importPrepared(memories: readonly PreparedMemory[]): ImportOutcome[] {
    return this.imports.importPrepared(memories);
  }

  /** A transaction of a bulk import that takes its memories in parts; the caller ends it. */
  beginImport(): ImportTransaction {
    return this.imports.beginImport();
  }

  /**
   * Counts by status, kind and pin, from the table triggers keep (migration 017). The memory
   * server asks once a second after any write (a hook's injection log, too). Sessions are counted
   * each time (a small table).
   */
  counts(): MemoryCounts {
    const byKind = Object.fromEntries(MEMORY_KINDS.map((k) => [k, 0])) as Record<MemoryKind, number>;
    const byStatus: Record<MemoryStatus, number> = { active: 0, archived: 0, forgotten: 0 };
    const pinned = { soft: 0, hard: 0 };
    let total = 0;
    for (const row of this.statements.countByKindStatusPin.all() as { kind: MemoryKind; status: MemoryStatus; pin: 'none' | 'soft' | 'hard'; n: number }[]) {
      total += row.n;
      byStatus[row.status] += row.n;
      if (row.status !== 'active') continue;
      if (row.kind in byKind) byKind[row.kind] += row.n;
      if (row.pin !== 'none') pinned[row.pin] += row.n;
    }
    return { total, byStatus, byKind, pinned, sessions: (this.statements.countSessions.get() as { n: number }).n };
  }

  schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  /** Changes whenever another connection commits: a cheap way to notice writes by the CLI or hooks. */
  dataVersion(): number {
    return this.statements.dataVersion.get() as number;
  }

  /**
   * Queues the memory server's sets of the words found in the most memories (store/termMatchSets.ts),
   * once, for a store too large for the in-memory index; returns how many were queued.
   */
  prefillTermSets(): number {
    // Read from the counts only while the sets were not filled: the job asks every second.
    return this.reads.prefillTermSets(() => this.termStats.widespread(WIDESPREAD_SHARE, PREFILL_TERMS_MAX));
  }

  /**
   * Changes whenever a memory changes, in any process (migration 008's triggers): what a cache
   * of query results about memories is valid for.
   */
  generation(): number {
    return this.heldGeneration ?? (this.statements.generation.get() as number);
  }

  private heldGeneration: number | undefined;

  /**
   * Runs `read` with the generation read once: a recall asks at every step (candidates, texts,
   * neighbours, whole memories), ~5 µs a time. For reads only: a write inside would not move it.
   */
  atOneGeneration<T>(read: () => T): T {
    if (this.heldGeneration !== undefined) return read();
    this.heldGeneration = this.statements.generation.get() as number;
    try {
      return read();
    } finally {
      this.heldGeneration = undefined;
    }
  }

  /**
   * Changes whenever a constraint changes, in any process (constraintGeneration.ts): what a list
   * of constraints is valid for, kept across the writes of other memories.
   */
  constraintGeneration(): number {
    return this.constraintChanges.current();
  }

  /** Changes with the generation and whenever a memory is shown or acted on (migration 009): for what ranks by usage. */
  generationWithUsage(): number {
    return this.statements.generationWithUsage.get() as number;
  }

  /**
   * The active memories (constraints aside) tagged with a file, as CodeLens counts them at its
   * top: how many, and the ids of the newest `maxIds`.
   */
  fileMemoryTally(path: string, maxIds: number): FileMemoryTally {
    return this.tallies.file(path, maxIds);
  }

  /** The same for each of `symbols` that has memories in the file, as CodeLens counts them above its declaration. */
  symbolMemoryTally(path: string, symbols: readonly string[], maxIds: number): SymbolMemoryTally {
    return this.tallies.symbols(path, symbols, maxIds);
  }

  /**
   * One slice of bringing the CodeLens listing states up to date (the memory server's background
   * job, listingStates.ts); null when they are current or the process keeps none.
   */
  advanceListingStates(): 'building' | 'built' | 'updated' | null {
    return this.listingStates?.advance() ?? null;
  }
}
