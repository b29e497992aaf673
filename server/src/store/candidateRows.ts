import type { MemoryId, MemoryKind, MemoryStatus, PinLevel } from '../memory/types';
import type { SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';
import { PathIds, type PathId } from './pathIds';

/** What recall needs to score a memory, without its text: cheap to load for hundreds of candidates. */
export interface CandidateRow {
  readonly rowid: number;
  readonly id: MemoryId;
  readonly kind: MemoryKind;
  readonly pin: PinLevel;
  readonly status: MemoryStatus;
  readonly importance: number;
  readonly updatedAt: number;
  readonly files: readonly string[];
  readonly symbols: readonly string[];
  readonly anchor: { readonly path: string; readonly startLine: number; readonly endLine: number; readonly stale: boolean } | null;
  readonly glob: string | null;
  /** The memory's one tagged file by number (PathIds), NOT_ONE when it has none or several: scoring compares numbers. */
  readonly soleFile: number;
  /** The folder of that file by number, NOT_ONE likewise. */
  readonly soleFolder: number;
}

const EMPTY: readonly string[] = Object.freeze([]);

/** Columns of `memories` and its anchor, in this order, for `.raw()` reads. */
const ROW_COLUMNS = `m.rowid, m.id, m.kind, m.pin, m.status, m.importance, m.updated_at,
  a.path, a.start_line, a.end_line, a.stale, json_extract(m.meta, '$.glob')`;

type RawRow = [number, string, MemoryKind, PinLevel, MemoryStatus, number, number, string | null, number | null, number | null, number | null, unknown];

/**
 * One copy of each repeated string (kinds, paths, symbols): SQLite returns a new string for every
 * row, and a resident copy of 100,000 memories held ~1.3 KB a row before, mostly duplicates.
 */
class Strings {
  private readonly kept = new Map<string, string>();

  of<T extends string>(value: T): T {
    const kept = this.kept.get(value);
    if (kept !== undefined) return kept as T;
    this.kept.set(value, value);
    return value;
  }

  list(values: readonly string[]): readonly string[] {
    return values.length ? values.map((v) => this.of(v)) : EMPTY;
  }
}

/** Reads recall's scoring rows: a few by rowid, or every memory at once (the memory server's resident copy). */
export class CandidateReader {
  private readonly statements;
  private readonly strings = new Strings();
  private readonly paths = new PathIds();

  constructor(db: SqliteDatabase) {
    const select = `SELECT ${ROW_COLUMNS},
          (SELECT json_group_array(path) FROM memory_files f WHERE f.memory_rowid = m.rowid),
          (SELECT json_group_array(symbol) FROM memory_symbols s WHERE s.memory_rowid = m.rowid)
        FROM memories m LEFT JOIN anchors a ON a.memory_rowid = m.rowid`;
    this.statements = lazyStatements({
      byRowids: () => db.prepare(`${select} WHERE m.rowid IN (SELECT value FROM json_each(?))`).raw(),
      all: () => db.prepare(select).raw(),
      after: () => db.prepare(`${select} WHERE m.rowid > ? ORDER BY m.rowid LIMIT ?`).raw(),
    });
  }

  /** A path's numbers as this reader's rows have them (soleFile, soleFolder). */
  pathId(file: string): PathId {
    return this.paths.find(file);
  }

  /** Scoring rows of these memories (any status); unknown rowids are left out. */
  byRowids(rowids: readonly number[]): CandidateRow[] {
    return this.read(this.statements.byRowids.all(JSON.stringify(rowids)));
  }

  /** Every memory's scoring row (~1 s at 100,000). */
  all(): CandidateRow[] {
    return this.read(this.statements.all.all());
  }

  /** Scoring rows of the `limit` memories after `rowid`, in rowid order: a load in slices. */
  after(rowid: number, limit: number): CandidateRow[] {
    return this.read(this.statements.after.all(rowid, limit));
  }

  private read(rows: unknown[]): CandidateRow[] {
    return (rows as [...RawRow, string, string][]).map((r) => this.toCandidate(r as unknown as RawRow, JSON.parse(r[12]) as string[], JSON.parse(r[13]) as string[]));
  }

  private toCandidate(r: RawRow, files: readonly string[], symbols: readonly string[]): CandidateRow {
    const s = this.strings;
    const kept = s.list(files);
    const sole = this.paths.sole(kept);
    return {
      rowid: r[0],
      id: r[1] as MemoryId,
      kind: s.of(r[2]),
      pin: s.of(r[3]),
      status: s.of(r[4]),
      importance: r[5],
      updatedAt: r[6],
      files: kept,
      symbols: s.list(symbols),
      anchor: r[7] === null ? null : { path: s.of(r[7]), startLine: r[8]!, endLine: r[9]!, stale: r[10] === 1 },
      glob: typeof r[11] === 'string' ? s.of(r[11]) : null,
      // Named, not spread: rows keep one hidden class.
      soleFile: sole.soleFile,
      soleFolder: sole.soleFolder,
    };
  }
}
