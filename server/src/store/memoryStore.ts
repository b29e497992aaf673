import type { Statement } from 'better-sqlite3';
import { Redactor } from '../capture/redact';
import { completeMemory, sortedUnique } from '../memory/newMemory';
import type { Memory, MemoryId, MemoryKind, MemoryStatus, NewMemory, PinLevel } from '../memory/types';
import { MEMORY_KINDS } from '../memory/types';
import { identifierParts } from '../recall/terms';
import { BulkImport, type ImportTransaction } from './bulkImport';
import { FtsTags } from './bulkImportTags';
import { CandidateReader, type CandidateRow } from './candidateRows';
import { prepareMemorySelect, rowToMemory, type MemoryRow } from './memoryRows';
import { prepareForImport, readMemoryOf, type PreparedMemory } from './preparedImport';
import type { SqliteDatabase } from './database';
import { GenerationMap } from './generationMap';
import { lazyStatements } from './lazyStatements';
import { GENERATION_SQL, GENERATION_WITH_USAGE_SQL, MemoryChangeLog } from './memoryChangeLog';
import { TermStats } from './termStats';
import { renamedPath } from './paths';
import { RowCaches } from './rowCaches';
import type { PathId } from './pathIds';
import { WholeMemoryReader } from './wholeMemoryReader';
import { ResidentTextIndex, type TextIndexState } from './textIndex/residentTextIndex';
import { BM25_COLUMN_WEIGHTS, type TextIndex } from './textIndex/textIndex';

/** A file's memories as CodeLens counts them (MemoryStore.fileMemoryTally). */
export interface FileMemoryTally {
  readonly total: number;
  /** The newest memories' ids. */
  readonly recentIds: readonly MemoryId[];
  readonly bySymbol: ReadonlyMap<string, { readonly count: number; readonly ids: readonly MemoryId[] }>;
}

const NEIGHBOUR_LISTS_KEPT = 2048;
/** Scoring rows read per slice when the memory server loads them all (~25 ms each). */
const CANDIDATE_SLICE = 2000;

export type { CandidateRow } from './candidateRows';

export interface MemoryCounts {
  readonly total: number;
  readonly byStatus: Readonly<Record<MemoryStatus, number>>;
  readonly byKind: Readonly<Record<MemoryKind, number>>;
  readonly pinned: { readonly soft: number; readonly hard: number };
  readonly sessions: number;
}

export type ImportOutcome = 'added' | 'updated' | 'unchanged';

/** revises: a later change of the same lines (a user's edit after an agent's); summarizes: a consolidation of its sources. */
export type MemoryRelation = 'revises' | 'summarizes';

export interface MemoryLink {
  readonly id: MemoryId;
  readonly relation: MemoryRelation;
}

/**
 * The only place that reads and writes memories with SQL. Every write is one transaction, so a
 * memory and its tags, anchor and index entry appear together or not at all.
 */
export class MemoryStore {
  private readonly statements: {
    insert: Statement;
    update: Statement;
    insertFile: Statement;
    insertSymbol: Statement;
    insertAnchor: Statement;
    deleteFiles: Statement;
    deleteSymbols: Statement;
    deleteAnchor: Statement;
    deleteFts: Statement;
    insertFts: Statement;
    byId: Statement;
    bySourceRef: Statement;
    bySourceRefPrefix: Statement;
    rowidOf: Statement;
    all: Statement;
    constraintsForFile: Statement;
    forFile: Statement;
    untaggedConstraints: Statement;
    pinnedConstraints: Statement;
    rowidsForFile: Statement;
    rowidsUnderFolder: Statement;
    rowidsForSymbol: Statement;
    rowidsForMembers: Statement;
    rowidsRecent: Statement;
    rowidsForSession: Statement;
    ftsTexts: Statement;
    newestTextMatches: Statement;
    rowidsUntaggedConstraints: Statement;
    anchoredAt: Statement;
    search: Statement;
    recent: Statement;
    setPin: Statement;
    latestDiff: Statement;
    recentDiffs: Statement;
    insertLink: Statement;
    linksFrom: Statement;
    linksTo: Statement;
    idsUnderPath: Statement;
    countByKindStatus: Statement;
    countPinned: Statement;
    countSessions: Statement;
    dataVersion: Statement;
    generation: Statement;
    generationWithUsage: Statement;
    importedAt: Statement;
    fileMemoryCount: Statement;
    fileRecentIds: Statement;
    fileSymbolGroups: Statement;
  };

  private readonly sessionNeighbourStatements = new Map<number, Statement>();
  private readonly untaggedConstraintRowids = new GenerationMap<'all', readonly number[]>(1);
  /**
   * Project-wide and pinned constraints, asked for by every hook and every file's governing
   * constraints: at 100,000 memories each read took 3–5 ms. Callers must not change them.
   */
  private readonly constraintLists = new GenerationMap<string, readonly Memory[]>(8);
  /**
   * Rowids of a file's, a folder's and a symbol's newest memories: recall asks for the same few
   * again and again, and a busy folder's cost SQLite a sort of thousands of rows (~0.5 ms).
   */
  private readonly neighbourRowids = new GenerationMap<string, readonly number[]>(NEIGHBOUR_LISTS_KEPT);
  /** Scoring rows, indexed texts and whole memories, kept until the memory changes (store/rowCaches.ts). */
  private readonly rows: RowCaches;
  private readonly candidateReader: CandidateReader;
  private readonly wholeReader: WholeMemoryReader;
  private textsKeptMax = 0;
  private readonly memoryCounts = new GenerationMap<'all', Omit<MemoryCounts, 'sessions'>>(1);
  private termStatsOfStore: TermStats | undefined;
  /** The memory server's full-text index in memory (store/textIndex/), null in short commands. */
  private readonly residentText: ResidentTextIndex | null;

  /** `resident`: a long-running process keeps every memory's scoring row in memory (RowCaches). */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly redactor: Redactor = new Redactor(),
    options: { readonly resident?: boolean } = {},
  ) {
    const changeLog = new MemoryChangeLog(db);
    const resident = options.resident ?? false;
    this.rows = new RowCaches(changeLog, resident, resident ? ((db.prepare('SELECT max(rowid) FROM memories').pluck().get() as number | null) ?? 0) : 0);
    this.residentText = options.resident ? new ResidentTextIndex(db, changeLog) : null;
    this.candidateReader = new CandidateReader(db);
    this.wholeReader = new WholeMemoryReader(db);
    this.statements = lazyStatements({
      insert: () => db.prepare(`INSERT INTO memories (id, kind, title, body, why, source, session_id, source_ref, created_at, updated_at, importance, pin, status, meta, fts_tags)
        VALUES (@id, @kind, @title, @body, @why, @source, @sessionId, @sourceRef, @createdAt, @updatedAt, @importance, @pin, @status, @meta, @ftsTags)`),
      update: () => db.prepare(`UPDATE memories SET kind = @kind, title = @title, body = @body, why = @why, source = @source,
        session_id = @sessionId, source_ref = @sourceRef, created_at = @createdAt, updated_at = @updatedAt, importance = @importance, pin = @pin,
        status = @status, meta = @meta, fts_tags = @ftsTags WHERE id = @id`),
      insertFile: () => db.prepare('INSERT OR IGNORE INTO memory_files (memory_rowid, path) VALUES (@rowid, @path)'),
      insertSymbol: () => db.prepare('INSERT OR IGNORE INTO memory_symbols (memory_rowid, symbol) VALUES (@rowid, @symbol)'),
      insertAnchor: () => db.prepare(`INSERT INTO anchors (memory_rowid, path, start_line, start_character, end_line, end_character,
        content_hash, context_before, context_after, stale)
        VALUES (@rowid, @path, @startLine, @startCharacter, @endLine, @endCharacter, @contentHash, @contextBefore, @contextAfter, @stale)`),
      deleteFiles: () => db.prepare('DELETE FROM memory_files WHERE memory_rowid = ?'),
      deleteSymbols: () => db.prepare('DELETE FROM memory_symbols WHERE memory_rowid = ?'),
      deleteAnchor: () => db.prepare('DELETE FROM anchors WHERE memory_rowid = ?'),
      deleteFts: () => db.prepare('DELETE FROM memory_fts WHERE rowid = ?'),
      insertFts: () => db.prepare('INSERT INTO memory_fts (rowid, title, body, why, tags) VALUES (@rowid, @title, @body, @why, @tags)'),
      byId: () => prepareMemorySelect(db, `WHERE m.id = ?`),
      bySourceRef: () => prepareMemorySelect(db, `WHERE m.source_ref = ?`),
      bySourceRefPrefix: () => prepareMemorySelect(db, `WHERE m.source_ref >= @prefix AND m.source_ref < @prefix || char(1114111) ORDER BY m.source_ref`),
      rowidOf: () => db.prepare('SELECT rowid FROM memories WHERE id = ?'),
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
      untaggedConstraints: () => prepareMemorySelect(db, `WHERE m.kind = 'constraint' AND m.status = 'active'
          AND m.rowid NOT IN (SELECT memory_rowid FROM memory_files) AND a.path IS NULL
        ORDER BY CASE m.pin WHEN 'hard' THEN 0 WHEN 'soft' THEN 1 ELSE 2 END, m.created_at`),
      rowidsForFile: () => db.prepare('SELECT memory_rowid AS rowid FROM memory_files WHERE path = @path ORDER BY memory_rowid DESC LIMIT @limit'),
      rowidsUnderFolder: () => db.prepare(`SELECT memory_rowid AS rowid FROM memory_files WHERE path > @prefix AND path < @prefix || char(1114111)
        ORDER BY memory_rowid DESC LIMIT @limit`),
      // Apart, each reads its rows in order from the index; an OR of both sorted them (~130 µs against ~65).
      rowidsForSymbol: () => db.prepare('SELECT memory_rowid AS rowid FROM memory_symbols WHERE symbol = @symbol ORDER BY memory_rowid DESC LIMIT @limit'),
      rowidsForMembers: () => db.prepare(`SELECT memory_rowid AS rowid FROM memory_symbols WHERE symbol > @prefix AND symbol < @prefix || char(1114111)
        ORDER BY memory_rowid DESC LIMIT @limit`),
      // What memory_fts indexed (schema v12 keeps no copy of it there).
      ftsTexts: () => db.prepare(`SELECT rowid, substr(title || ' ' || coalesce(why, '') || ' ' || fts_tags || ' ' || body, 1, @max) AS text FROM memories
        WHERE rowid IN (SELECT value FROM json_each(@rowids))`),
      rowidsForSession: () => db.prepare(`SELECT rowid FROM memories WHERE session_id = @sessionId AND status = 'active'
        AND kind IN (SELECT value FROM json_each(@kinds)) ORDER BY updated_at DESC LIMIT @limit`),
      rowidsRecent: () => db.prepare("SELECT rowid FROM memories WHERE status = 'active' ORDER BY updated_at DESC LIMIT @limit"),
      rowidsUntaggedConstraints: () => db.prepare(`SELECT m.rowid FROM memories m WHERE m.kind = 'constraint' AND m.status = 'active'
        AND m.rowid NOT IN (SELECT memory_rowid FROM memory_files) AND m.rowid NOT IN (SELECT memory_rowid FROM anchors)`),
      pinnedConstraints: () => prepareMemorySelect(db, `WHERE m.kind = 'constraint' AND m.status = 'active' AND m.pin = @pin ORDER BY m.created_at LIMIT @limit`),
      anchoredAt: () => prepareMemorySelect(db, `WHERE a.path = @path AND +m.status = 'active' ORDER BY a.start_line`),
      forFile: () => prepareMemorySelect(db, `WHERE +m.status = 'active' AND m.rowid IN (SELECT memory_rowid FROM memory_files WHERE path = @path)
        ORDER BY +m.updated_at DESC LIMIT @limit`),
      search: () => db.prepare(`SELECT rowid, bm25(memory_fts, ${BM25_COLUMN_WEIGHTS.map((w) => w.toFixed(1)).join(', ')}) AS rank FROM memory_fts
        WHERE memory_fts MATCH @query ORDER BY rank LIMIT @limit`),
      // No rank: FTS5 reads the doclists from their ends and stops at the limit.
      newestTextMatches: () => db.prepare('SELECT rowid FROM memory_fts WHERE memory_fts MATCH @query ORDER BY rowid DESC LIMIT @limit').pluck(),
      recent: () => prepareMemorySelect(db, `WHERE m.status = 'active' ORDER BY m.updated_at DESC LIMIT @limit`),
      setPin: () => db.prepare('UPDATE memories SET pin = @pin, updated_at = @now WHERE id = @id'),
      idsUnderPath: () => db.prepare(`SELECT DISTINCT m.id FROM memories m
        WHERE m.rowid IN (SELECT memory_rowid FROM memory_files WHERE path = @path OR substr(path, 1, length(@prefix)) = @prefix)
           OR m.rowid IN (SELECT memory_rowid FROM anchors WHERE path = @path OR substr(path, 1, length(@prefix)) = @prefix)`),
      latestDiff: () => prepareMemorySelect(db, `WHERE m.kind = 'diff' AND m.status = 'active' AND m.source = @source AND m.updated_at >= @since
          AND m.rowid IN (SELECT memory_rowid FROM memory_files WHERE path = @path)
        ORDER BY m.updated_at DESC LIMIT 1`),
      recentDiffs: () => prepareMemorySelect(db, `WHERE m.kind = 'diff' AND m.status = 'active' AND m.source = @source AND m.updated_at >= @since
          AND m.rowid IN (SELECT memory_rowid FROM memory_files WHERE path = @path)
        ORDER BY m.updated_at DESC LIMIT @limit`),
      insertLink: () => db.prepare(`INSERT OR IGNORE INTO memory_links (from_rowid, to_rowid, relation)
        SELECT f.rowid, t.rowid, @relation FROM memories f, memories t WHERE f.id = @from AND t.id = @to`),
      linksFrom: () => db.prepare(`SELECT t.id AS id, l.relation AS relation FROM memory_links l JOIN memories f ON f.rowid = l.from_rowid
        JOIN memories t ON t.rowid = l.to_rowid WHERE f.id = ? ORDER BY t.rowid`),
      linksTo: () => db.prepare(`SELECT f.id AS id, l.relation AS relation FROM memory_links l JOIN memories f ON f.rowid = l.from_rowid
        JOIN memories t ON t.rowid = l.to_rowid WHERE t.id = ? ORDER BY f.rowid`),
      countByKindStatus: () => db.prepare('SELECT kind, status, count(*) AS n FROM memories GROUP BY kind, status'),
      countPinned: () => db.prepare("SELECT pin, count(*) AS n FROM memories WHERE pin != 'none' AND status = 'active' GROUP BY pin"),
      countSessions: () => db.prepare('SELECT count(*) AS n FROM sessions'),
      dataVersion: () => db.prepare('PRAGMA data_version').pluck(),
      generation: () => db.prepare(GENERATION_SQL).pluck(),
      generationWithUsage: () => db.prepare(GENERATION_WITH_USAGE_SQL).pluck(),
      importedAt: () => db.prepare('SELECT updated_at AS updatedAt FROM memories WHERE id = ?'),
      fileMemoryCount: () => db.prepare(`SELECT count(*) FROM memory_files f CROSS JOIN memories m ON m.rowid = f.memory_rowid
        WHERE f.path = @path AND m.status = 'active' AND m.kind != 'constraint'`).pluck(),
      fileRecentIds: () => db.prepare(`SELECT m.id FROM memory_files f CROSS JOIN memories m ON m.rowid = f.memory_rowid
        WHERE f.path = @path AND m.status = 'active' AND m.kind != 'constraint' ORDER BY m.updated_at DESC LIMIT @limit`).pluck(),
      fileSymbolGroups: () => db.prepare(`SELECT s.symbol AS symbol, count(*) AS n, json_group_array(m.id) AS ids_json
        FROM memory_files f CROSS JOIN memories m ON m.rowid = f.memory_rowid CROSS JOIN memory_symbols s ON s.memory_rowid = f.memory_rowid
        WHERE f.path = @path AND m.status = 'active' AND m.kind != 'constraint' GROUP BY s.symbol`),
    });
  }

  add(input: NewMemory, now: number = Date.now()): Memory {
    const memory = completeMemory(input, now);
    return this.db.transaction(() => this.write(memory, 'insert'))();
  }

  get(id: string): Memory | null {
    const row = this.statements.byId.get(id) as MemoryRow | undefined;
    return row ? rowToMemory(row) : null;
  }

  bySourceRef(sourceRef: string): Memory | null {
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
    this.constraintLists.sync(this.generation());
    return this.constraintLists.getOrCompute('untagged', () => (this.statements.untaggedConstraints.all() as MemoryRow[]).map(rowToMemory));
  }

  /**
   * A resident store (the memory server) of at most RESIDENT_ROWS_MAX memories reads every
   * memory's scoring row now; returns how many, or 0 when there was nothing to do.
   */
  keepEveryCandidate(): number {
    const rows = this.rows;
    rows.sync(this.generation());
    if (!rows.resident || rows.hasEveryCandidate) return 0;
    const all = this.candidateReader.all();
    rows.keepCandidates(all, true);
    return all.length;
  }

  /**
   * The same in slices of CANDIDATE_SLICE rows, calling `pause` between them so the memory server
   * goes on answering (recall reads the rows it needs by rowid meanwhile). Rows of memories that
   * change during the load are dropped by the change log and read again when asked for.
   */
  async loadEveryCandidate(pause: () => Promise<void>): Promise<number> {
    const rows = this.rows;
    if (!rows.resident || rows.hasEveryCandidate) return 0;
    let after = 0;
    let loaded = 0;
    for (;;) {
      rows.sync(this.generation());
      const slice = this.candidateReader.after(after, CANDIDATE_SLICE);
      const last = slice.length < CANDIDATE_SLICE;
      rows.keepCandidates(slice, last);
      loaded += slice.length;
      if (last) return loaded;
      after = slice[slice.length - 1]!.rowid;
      await pause();
    }
  }

  /** A path's numbers as the scoring rows have them (CandidateRow.soleFile, soleFolder). */
  pathId(file: string): PathId {
    return this.candidateReader.pathId(file);
  }

  /** Scoring data for the given rows (any status); unknown rowids are left out. */
  candidates(rowids: readonly number[]): CandidateRow[] {
    if (!rowids.length) return [];
    const rows = this.rows;
    // Not loaded here: a first hover waited seconds for every row (the server loads them in slices after opening).
    rows.sync(this.generation());
    const found: CandidateRow[] = [];
    let missing: number[] | undefined;
    for (const rowid of rowids) {
      const row = rows.candidates.get(rowid);
      if (row) found.push(row);
      else (missing ??= []).push(rowid);
    }
    if (!missing) return found;
    for (const row of this.candidateReader.byRowids(missing)) rows.candidates.set(row.rowid, row);
    return rowids.flatMap((rowid) => rows.candidates.get(rowid) ?? []);
  }

  /** Rowids of full-text matches with their bm25 rank (negative; lower is better), best first. */
  searchRowids(ftsQuery: string, limit: number): { rowid: number; rank: number }[] {
    return this.statements.search.all({ query: ftsQuery, limit }) as { rowid: number; rank: number }[];
  }

  /** Rowids of the newest memories matching a full-text query, unranked. */
  newestTextMatches(ftsQuery: string, limit: number): number[] {
    return this.statements.newestTextMatches.all({ query: ftsQuery, limit }) as number[];
  }

  /** The in-memory full-text index at the current generation; null when not resident or not built yet. */
  textIndex(): TextIndex | null {
    return this.residentText?.at(this.generation()) ?? null;
  }

  /**
   * Builds the in-memory full-text index of a resident store, in slices separated by `pause`
   * (at once without one). Resolves to the memories indexed, 0 when there was nothing to do.
   */
  async buildTextIndex(pause?: () => Promise<void>): Promise<number> {
    if (!this.residentText) return 0;
    return pause ? this.residentText.build(pause) : this.residentText.buildNow();
  }

  /**
   * Builds the in-memory full-text index of a resident store in a process of its own, reading
   * `databaseFile` (this store's database). Resolves to the memories indexed, 0 when there was nothing to do.
   */
  async buildTextIndexElsewhere(databaseFile: string): Promise<number> {
    return this.residentText ? this.residentText.buildElsewhere(databaseFile) : 0;
  }

  /** Drops a resident store's full-text index until it is built again (recall asks FTS5 meanwhile). */
  dropTextIndex(): void {
    this.residentText?.drop();
  }

  /** Whether a resident store's full-text index is missing or was dropped after a large change. */
  get textIndexState(): TextIndexState | null {
    return this.residentText?.state ?? null;
  }

  /** Document frequencies of the full-text index terms (schema v9). */
  get termStats(): TermStats {
    this.termStatsOfStore ??= new TermStats(this.db);
    return this.termStatsOfStore;
  }

  /** Rowids of memories tagged with `path`, newest first. */
  rowidsForFile(path: string, limit: number): readonly number[] {
    return this.neighbours(`file\0${path}\0${limit}`, () => this.statements.rowidsForFile.all({ path, limit }) as { rowid: number }[]);
  }

  /** Rowids of memories tagged with a file under `folder` ('' = anywhere), newest first. */
  rowidsUnderFolder(folder: string, limit: number): readonly number[] {
    return this.neighbours(`folder\0${folder}\0${limit}`, () => this.statements.rowidsUnderFolder.all({ prefix: folder ? `${folder}/` : '', limit }) as { rowid: number }[]);
  }

  /** Rowids of memories tagged with `symbol` or a member of it (`Parser` → `Parser.peek`), newest first. */
  rowidsForSymbol(symbol: string, limit: number): readonly number[] {
    return this.neighbours(`symbol\0${symbol}\0${limit}`, () => {
      const own = this.statements.rowidsForSymbol.all({ symbol, limit }) as { rowid: number }[];
      const members = this.statements.rowidsForMembers.all({ prefix: `${symbol}.`, limit }) as { rowid: number }[];
      if (!members.length) return own;
      const newestFirst = [...new Set([...own, ...members].map((r) => r.rowid))].sort((a, b) => b - a);
      return newestFirst.slice(0, limit).map((rowid) => ({ rowid }));
    });
  }

  private neighbours(key: string, read: () => { rowid: number }[]): readonly number[] {
    this.neighbourRowids.sync(this.generation());
    return this.neighbourRowids.getOrCompute(key, () => read().map((r) => r.rowid));
  }

  /**
   * The indexed text of memories (title, why, tags, then the body), at most `max` characters
   * each, lowercased once when read (recall compares words with it at every query).
   */
  lowercaseTexts(rowids: readonly number[], max: number): Map<number, string> {
    if (!rowids.length) return new Map();
    const texts = this.rows.texts;
    this.rows.sync(this.generation());
    if (max !== this.textsKeptMax) {
      this.textsKeptMax = max;
      texts.clear();
    }
    const found = new Map<number, string>();
    const missing: number[] = [];
    for (const rowid of rowids) {
      const text = texts.get(rowid);
      if (text === undefined) missing.push(rowid);
      else found.set(rowid, text);
    }
    if (missing.length) {
      for (const row of this.statements.ftsTexts.all({ rowids: JSON.stringify(missing), max }) as { rowid: number; text: string }[]) {
        const text = row.text.toLowerCase();
        texts.set(row.rowid, text);
        found.set(row.rowid, text);
      }
    }
    return found;
  }

  /** Rowids of a session's active memories of some kinds, newest first. */
  rowidsForSession(sessionId: string, kinds: readonly MemoryKind[], limit: number): number[] {
    return (this.statements.rowidsForSession.all({ sessionId, kinds: JSON.stringify(kinds), limit }) as { rowid: number }[]).map((r) => r.rowid);
  }

  /**
   * For each memory with a session, the rowids of the `span` memories recorded just before it and
   * just after it in that session (any status): recall's session context (recall/sessionContext.ts).
   */
  sessionNeighbours(rowids: readonly number[], span: number): Map<number, number[]> {
    const found = new Map<number, number[]>();
    if (!rowids.length || !Number.isInteger(span) || span < 1) return found;
    let statement = this.sessionNeighbourStatements.get(span);
    if (!statement) {
      // The (session_id) index lists a session's memories in rowid order, the order they were
      // recorded. The span is written into the SQL: with LIMIT ? SQLite planned it twice as slow.
      statement = this.db.prepare(`SELECT m.rowid AS rowid, n.rowid AS near FROM memories m, memories n
        WHERE m.rowid IN (SELECT value FROM json_each(@rowids)) AND n.session_id = m.session_id AND n.rowid IN (
          SELECT * FROM (SELECT b.rowid FROM memories b WHERE b.session_id = m.session_id AND b.rowid < m.rowid ORDER BY b.rowid DESC LIMIT ${span})
          UNION ALL SELECT * FROM (SELECT a.rowid FROM memories a WHERE a.session_id = m.session_id AND a.rowid > m.rowid ORDER BY a.rowid LIMIT ${span}))`);
      this.sessionNeighbourStatements.set(span, statement);
    }
    for (const { rowid, near } of statement.all({ rowids: JSON.stringify(rowids) }) as { rowid: number; near: number }[]) {
      const list = found.get(rowid);
      if (list) list.push(near);
      else found.set(rowid, [near]);
    }
    return found;
  }

  /** Rowids of the newest active memories: every session start asks, and SQLite sorts all of them (~0.3 ms at 100,000). */
  rowidsRecent(limit: number): readonly number[] {
    return this.neighbours(`recent\0${limit}`, () => this.statements.rowidsRecent.all({ limit }) as { rowid: number }[]);
  }

  /**
   * Rowids of active project-wide and glob-scoped constraints. Every recall for a file asks, and
   * finding them checks every active constraint: kept until a memory changes.
   */
  rowidsUntaggedConstraints(): readonly number[] {
    this.untaggedConstraintRowids.sync(this.generation());
    return this.untaggedConstraintRowids.getOrCompute('all', () => (this.statements.rowidsUntaggedConstraints.all() as { rowid: number }[]).map((r) => r.rowid));
  }

  /** Full memories for rowids, in the order given. */
  byRowids(rowids: readonly number[]): Memory[] {
    const whole = this.rows.whole;
    this.rows.sync(this.generation());
    // Read here, not from the cache afterwards: it keeps fewer than a timeline page holds.
    const found = new Map<number, Memory>();
    const missing: number[] = [];
    for (const rowid of rowids) {
      const kept = whole.get(rowid);
      if (kept) found.set(rowid, kept);
      else missing.push(rowid);
    }
    // One statement for all that are not kept (a recall's top ten cost ten statements, ~30 µs each).
    for (const [rowid, memory] of this.wholeReader.read(missing, (r) => this.rows.candidates.get(r))) {
      found.set(rowid, memory);
      whole.set(rowid, memory);
    }
    return rowids.flatMap((rowid) => found.get(rowid) ?? []);
  }

  /** Active constraints with a given pin, oldest first. */
  pinnedConstraints(pin: 'hard' | 'soft', limit: number): readonly Memory[] {
    this.constraintLists.sync(this.generation());
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
    const hits = this.statements.search.all({ query: ftsQuery, limit }) as { rowid: number; rank: number }[];
    return hits.flatMap((hit) => this.byRowids([hit.rowid]).map((memory) => ({ memory, rank: hit.rank })));
  }

  /** The most recent active diff memory of a file from one source, if it was updated since `since`. */
  latestDiff(path: string, source: Memory['source'], since: number): Memory | null {
    const row = this.statements.latestDiff.get({ path, source, since }) as MemoryRow | undefined;
    return row ? rowToMemory(row) : null;
  }

  /** Recent active diff memories of a file from one source, newest first. */
  recentDiffs(path: string, source: Memory['source'], since: number, limit: number): Memory[] {
    return (this.statements.recentDiffs.all({ path, source, since, limit }) as MemoryRow[]).map(rowToMemory);
  }

  /** Records that memory `from` relates to memory `to` (e.g. 'revises'); idempotent; false when either id is unknown. */
  link(from: MemoryId, to: MemoryId, relation: MemoryRelation): boolean {
    return this.db.transaction(() => this.statements.insertLink.run({ from, to, relation }).changes > 0 || this.hasLink(from, to, relation))();
  }

  /** The memories `id` points to, and the memories that point to it, with the relation. */
  links(id: MemoryId): { readonly from: readonly MemoryLink[]; readonly to: readonly MemoryLink[] } {
    return { from: this.statements.linksFrom.all(id) as MemoryLink[], to: this.statements.linksTo.all(id) as MemoryLink[] };
  }

  private hasLink(from: MemoryId, to: MemoryId, relation: MemoryRelation): boolean {
    return this.links(from).from.some((l) => l.id === to && l.relation === relation);
  }

  /**
   * Follows a renamed file or folder: every memory tagged with `from` (or a path under it) is
   * re-tagged with the new path, anchors included. Returns how many memories changed.
   */
  renamePath(from: string, to: string): number {
    const move = (p: string) => renamedPath(p, from, to) ?? p;
    return this.db.transaction(() => {
      const ids = (this.statements.idsUnderPath.all({ path: from, prefix: `${from}/` }) as { id: string }[]).map((r) => r.id);
      for (const id of ids) {
        const memory = this.get(id)!;
        this.write(
          { ...memory, files: sortedUnique(memory.files.map(move)), anchor: memory.anchor ? { ...memory.anchor, path: move(memory.anchor.path) } : null },
          'update',
        );
      }
      return ids.length;
    }).immediate();
  }

  /** Replaces a memory's content (same id); returns what was stored, or null when the id is unknown. */
  update(memory: Memory): Memory | null {
    // IMMEDIATE, as `add` takes the write lock first: a deferred transaction that reads first
    // fails at once when another process (a hook, a history import) is writing, instead of waiting.
    return this.db.transaction(() => (this.get(memory.id) ? this.write(memory, 'update') : null)).immediate();
  }

  /** Returns the updated memory, or null when no memory has that id. */
  setPin(id: string, pin: PinLevel, now: number = Date.now()): Memory | null {
    const changed = this.statements.setPin.run({ id, pin, now }).changes;
    return changed ? this.get(id) : null;
  }

  /**
   * Takes a memory from an export: added when new, replaced when the incoming copy is newer,
   * left alone otherwise — so importing the same file twice changes nothing.
   */
  import(memory: Memory): ImportOutcome {
    return this.db.transaction(() => this.importOne(memory))();
  }

  private bulkImport: BulkImport | undefined;
  private importTags: FtsTags | undefined;

  /**
   * `import` for many memories in one transaction: a bulk import pays for one commit per batch,
   * not one per memory. All or nothing: a failure leaves none of the batch.
   */
  importMany(memories: readonly Memory[]): ImportOutcome[] {
    // The bulk writer rolls back a failed batch's whole transaction: a caller's own one too.
    if (this.db.inTransaction) return this.db.transaction(() => memories.map((memory) => this.importOne(memory)))();
    this.importTags ??= new FtsTags();
    return this.importPrepared(memories.map((memory) => prepareForImport(memory, this.redactor, this.importTags!)));
  }

  /** importMany of memories already redacted, with their full-text tags (preparedImport.ts). */
  importPrepared(memories: readonly PreparedMemory[]): ImportOutcome[] {
    if (this.db.inTransaction) return this.db.transaction(() => memories.map((memory) => this.importOne(readMemoryOf(memory))))();
    return this.bulk().run(memories);
  }

  /**
   * A transaction of a bulk import that takes its memories in parts (`engram import`, which adds
   * each batch of its reader thread as it arrives); the caller ends it. Not inside a transaction.
   */
  beginImport(): ImportTransaction {
    if (this.db.inTransaction) throw new Error('an import transaction cannot start inside another transaction');
    return this.bulk().begin();
  }

  private bulk(): BulkImport {
    return (this.bulkImport ??= new BulkImport(this.db, (memory) => this.write(memory, 'update')));
  }

  private importOne(memory: Memory): ImportOutcome {
    const existing = this.statements.importedAt.get(memory.id) as { updatedAt: number } | undefined;
    if (!existing) {
      this.write(memory, 'insert');
      return 'added';
    }
    if (memory.updatedAt <= existing.updatedAt) return 'unchanged';
    this.write(memory, 'update');
    return 'updated';
  }

  /**
   * Counts by status, kind and pin. The memory server asks once a second after any write (a hook's
   * injection log, too), and counting 100,000 memories takes ~13 ms that a hook arriving then would
   * wait for: kept until a memory changes. Sessions are counted each time (a small table).
   */
  counts(): MemoryCounts {
    this.memoryCounts.sync(this.generation());
    const counts = this.memoryCounts.getOrCompute('all', () => this.countMemories());
    return { ...counts, sessions: (this.statements.countSessions.get() as { n: number }).n };
  }

  private countMemories(): Omit<MemoryCounts, 'sessions'> {
    const byKind = Object.fromEntries(MEMORY_KINDS.map((k) => [k, 0])) as Record<MemoryKind, number>;
    const byStatus: Record<MemoryStatus, number> = { active: 0, archived: 0, forgotten: 0 };
    let total = 0;
    for (const row of this.statements.countByKindStatus.all() as { kind: MemoryKind; status: MemoryStatus; n: number }[]) {
      total += row.n;
      byStatus[row.status] += row.n;
      if (row.status === 'active' && row.kind in byKind) byKind[row.kind] += row.n;
    }
    const pinned = { soft: 0, hard: 0 };
    for (const row of this.statements.countPinned.all() as { pin: 'soft' | 'hard'; n: number }[]) pinned[row.pin] = row.n;
    return { total, byStatus, byKind, pinned };
  }

  schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  /** Changes whenever another connection commits: a cheap way to notice writes by the CLI or hooks. */
  dataVersion(): number {
    return this.statements.dataVersion.get() as number;
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

  /** Changes with the generation and whenever a memory is shown or acted on (migration 009): for what ranks by usage. */
  generationWithUsage(): number {
    return this.statements.generationWithUsage.get() as number;
  }

  /**
   * The active memories (constraints aside) tagged with a file, as CodeLens counts them: how many
   * in all and per symbol, with the ids of at most `maxIds` of each (the newest, for the top of the file).
   */
  fileMemoryTally(path: string, maxIds: number, maxIdsPerSymbol: number = maxIds): FileMemoryTally {
    const groups = this.statements.fileSymbolGroups.all({ path }) as { symbol: string; n: number; ids_json: string }[];
    return {
      total: this.statements.fileMemoryCount.get({ path }) as number,
      recentIds: this.statements.fileRecentIds.all({ path, limit: maxIds }) as MemoryId[],
      // Ids sort by creation time (ids.ts): the newest first.
      bySymbol: new Map(groups.map((g) => [g.symbol, { count: g.n, ids: (JSON.parse(g.ids_json) as MemoryId[]).sort().reverse().slice(0, maxIdsPerSymbol) }])),
    };
  }

  /** Redacts secrets here, on the one path to the database, so no caller can forget; returns what was stored. */
  private write(unredacted: Memory, mode: 'insert' | 'update'): Memory {
    const memory = this.redactor.memory(unredacted);
    const tags = [...memory.files, ...memory.symbols, ...identifierParts([memory.title, ...memory.files, ...memory.symbols].join(' '))].join(' ');
    const params = { ...memory, meta: JSON.stringify(memory.meta), ftsTags: tags };
    let rowid: number;
    if (mode === 'insert') {
      rowid = Number(this.statements.insert.run(params).lastInsertRowid);
    } else {
      this.statements.update.run(params);
      rowid = (this.statements.rowidOf.get(memory.id) as { rowid: number }).rowid;
      this.statements.deleteFiles.run(rowid);
      this.statements.deleteSymbols.run(rowid);
      this.statements.deleteAnchor.run(rowid);
      this.statements.deleteFts.run(rowid);
    }
    for (const path of memory.files) this.statements.insertFile.run({ rowid, path });
    for (const symbol of memory.symbols) this.statements.insertSymbol.run({ rowid, symbol });
    if (memory.anchor) {
      this.statements.insertAnchor.run({ rowid, path: memory.anchor.path, ...memory.anchor.range, contentHash: memory.anchor.contentHash,
        contextBefore: memory.anchor.contextBefore, contextAfter: memory.anchor.contextAfter, stale: memory.anchor.stale ? 1 : 0 });
    }
    this.statements.insertFts.run({ rowid, title: memory.title, body: memory.body, why: memory.why ?? '', tags });
    return memory;
  }
}
