import type { Statement } from 'better-sqlite3';
import type { Memory, MemoryKind } from '../memory/types';
import { CandidateReader, type CandidateRow } from './candidateRows';
import type { SqliteDatabase } from './database';
import { GenerationMap } from './generationMap';
import { lazyStatements } from './lazyStatements';
import type { MemoryChangeLog } from './memoryChangeLog';
import type { PathId } from './pathIds';
import { RowCaches } from './rowCaches';
import { ResidentTextIndex, type TextIndexState } from './textIndex/residentTextIndex';
import { BM25_COLUMN_WEIGHTS, type TextIndex } from './textIndex/textIndex';
import { ftsQueryOfWords, type TermOperator } from './ftsQuery';
import { TermMatchSets, type FillWord } from './termMatchSets';
import { WholeMemoryReader } from './wholeMemoryReader';

const NEIGHBOUR_LISTS_KEPT = 2048;
/** Scoring rows read per slice when the memory server loads them all (~25 ms each). */
const CANDIDATE_SLICE = 2000;

/**
 * The read model recall uses (recall/): memories as rowids and scoring rows, their indexed texts,
 * the neighbours of a file, folder, symbol or session, and the full-text index. Everything here
 * is kept until a memory changes (the store's generation), in any process.
 */
export class RecallReads {
  private readonly statements;
  private readonly sessionNeighbourStatements = new Map<number, Statement>();
  private readonly untaggedConstraintRowids = new GenerationMap<'all', readonly number[]>(1);
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
  /** The memory server's full-text index in memory (store/textIndex/), null in short commands. */
  private readonly residentText: ResidentTextIndex | null;
  /** The memory server's sets of the words recall's fills combine, for stores that search FTS5 (termMatchSets.ts). */
  private readonly termSets: TermMatchSets | null;

  /** `resident`: a long-running process keeps every memory's scoring row in memory (RowCaches). */
  constructor(
    private readonly db: SqliteDatabase,
    changeLog: MemoryChangeLog,
    private readonly generation: () => number,
    resident: boolean,
    /** Moves only when a constraint changes (ConstraintGeneration): what the untagged constraints' rowids are kept for. */
    private readonly constraintGeneration: () => number,
  ) {
    this.rows = new RowCaches(changeLog, resident, resident ? ((db.prepare('SELECT max(rowid) FROM memories').pluck().get() as number | null) ?? 0) : 0);
    this.residentText = resident ? new ResidentTextIndex(db, changeLog) : null;
    this.termSets = resident ? new TermMatchSets(db, changeLog, generation) : null;
    this.candidateReader = new CandidateReader(db);
    this.wholeReader = new WholeMemoryReader(db);
    this.statements = lazyStatements({
      // `+kind`: by rowid, not through the kind index (without ANALYZE the planner may scan every diff).
      diffBodies: () => db.prepare("SELECT rowid, body FROM memories WHERE rowid IN (SELECT value FROM json_each(?)) AND +kind = 'diff'").raw(),
      rowidsForFile: () => db.prepare('SELECT memory_rowid AS rowid FROM memory_files WHERE path = @path ORDER BY memory_rowid DESC LIMIT @limit'),
      rowidsUnderFolder: () => db.prepare(`SELECT memory_rowid AS rowid FROM memory_files WHERE path > @prefix AND path < @prefix || char(1114111)
        ORDER BY memory_rowid DESC LIMIT @limit`),
      // Apart, each reads its rows in order from the index; an OR of both sorted them (~130 µs against ~65).
      rowidsForSymbol: () => db.prepare('SELECT memory_rowid AS rowid FROM memory_symbols WHERE symbol = @symbol ORDER BY memory_rowid DESC LIMIT @limit'),
      rowidsForMembers: () => db.prepare(`SELECT memory_rowid AS rowid FROM memory_symbols WHERE symbol > @prefix AND symbol < @prefix || char(1114111)
        ORDER BY memory_rowid DESC LIMIT @limit`),
      // What memory_fts indexed (schema v12 keeps no copy of it there).
      // The body cut before it is joined: a diff can be tens of KB, and only its start is read.
      ftsTexts: () => db.prepare(`SELECT rowid, substr(title || ' ' || coalesce(why, '') || ' ' || fts_tags || ' ' || substr(body, 1, @max), 1, @max) AS text FROM memories
        WHERE rowid IN (SELECT value FROM json_each(@rowids))`),
      rowidsForSession: () => db.prepare(`SELECT rowid FROM memories WHERE session_id = @sessionId AND status = 'active'
        AND kind IN (SELECT value FROM json_each(@kinds)) ORDER BY updated_at DESC LIMIT @limit`),
      rowidsRecent: () => db.prepare("SELECT rowid FROM memories WHERE status = 'active' ORDER BY updated_at DESC LIMIT @limit"),
      rowidsUntaggedConstraints: () => db.prepare(`SELECT m.rowid FROM memories m WHERE m.kind = 'constraint' AND m.status = 'active'
        AND m.rowid NOT IN (SELECT memory_rowid FROM memory_files) AND m.rowid NOT IN (SELECT memory_rowid FROM anchors)`),
      search: () => db.prepare(`SELECT rowid, bm25(memory_fts, ${BM25_COLUMN_WEIGHTS.map((w) => w.toFixed(1)).join(', ')}) AS rank FROM memory_fts
        WHERE memory_fts MATCH @query ORDER BY rank LIMIT @limit`),
      // No rank: FTS5 reads the doclists from their ends and stops at the limit.
      newestTextMatches: () => db.prepare('SELECT rowid FROM memory_fts WHERE memory_fts MATCH @query ORDER BY rowid DESC LIMIT @limit').pluck(),
    });
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

  /**
   * Rowids of the newest memories with every word (AND) or any (OR), newest first, unranked:
   * with the memory server's sets of widespread terms when it has one of them, else from FTS5.
   */
  newestTextMatches(words: readonly FillWord[], operator: TermOperator, limit: number): number[] {
    let fromSets: number[] | null = null;
    try {
      fromSets = this.termSets?.newest(words, operator, limit) ?? null;
    } catch {
      // Its temporary table could not be written (a full disk): FTS5 answers, and the sets are
      // brought up to date again from the same generation next time.
    }
    if (fromSets) return fromSets;
    return this.statements.newestTextMatches.all({ query: ftsQueryOfWords(words.map((word) => word.map((t) => t.term)), operator), limit }) as number[];
  }

  /**
   * Builds one queued term set (termMatchSets.ts); false when there is nothing to build or the
   * process keeps no sets. The memory server calls it in the background, one per turn.
   */
  buildPendingTermSet(): boolean {
    return this.termSets?.buildPending() ?? false;
  }

  /**
   * Queues the sets of the index terms `widespread` gives (most widespread first, each with a word
   * that makes it alone), once, so they are ready before queries need them; returns how many.
   */
  prefillTermSets(widespread: () => readonly { readonly indexTerm: string; readonly word: string }[]): number {
    return this.termSets?.prefill(widespread) ?? 0;
  }

  /** Drops the term sets, whose memory a store back within the in-memory index's size has no use for. */
  dropTermSets(): void {
    this.termSets?.clear();
  }

  /** The term sets kept, for the bench (null when the process keeps none). */
  get termSetSize(): { readonly sets: number; readonly bytes: number; readonly pending: number } | null {
    return this.termSets?.size ?? null;
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
   * finding them checks every constraint (~20–40 ms at 1,000,000 memories, 30,000 constraints):
   * kept until a constraint changes, not after every other write (an agent's edit, a prompt).
   * MemoryStore.untaggedConstraints reads the same set whole.
   */
  rowidsUntaggedConstraints(): readonly number[] {
    this.untaggedConstraintRowids.sync(this.constraintGeneration());
    return this.untaggedConstraintRowids.getOrCompute('all', () => (this.statements.rowidsUntaggedConstraints.all() as { rowid: number }[]).map((r) => r.rowid));
  }

  /** The bodies of those of `rowids` that are diffs, by rowid: a file's recent history, without the rest of each memory. */
  diffBodies(rowids: readonly number[]): Map<number, string> {
    return new Map(this.statements.diffBodies.all(JSON.stringify(rowids)) as [number, string][]);
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
}
