import type { Anchor, Memory } from '../memory/types';
import type { SqliteDatabase, SqliteStatement } from './database';
import { lazyStatements } from './lazyStatements';
import { ANCHOR_COLUMNS, anchorFrom, MEMORY_COLUMNS, memoryFrom, prepareMemorySelect, rowToMemory, type AnchorColumns, type MemoryColumns, type MemoryRow } from './memoryRows';

/** How many ids of memories that could not be read a report names. */
const NAMED_IDS = 5;

/** What reading a damaged database got, counted as it goes. */
export interface SalvageTally {
  /** Memories read, whole or not. */
  read: number;
  /** Of those, read without some of their files, symbols or pinned lines (those pages are damaged). */
  incomplete: number;
  /** Memories an index knows of whose own row could not be read. */
  unreadable: number;
  /** The first few of those, where an index holds their id. */
  readonly unreadableIds: string[];
}

/** A failure that comes from damaged pages (or a value damaged into nonsense), not from how the database is used. */
export function isDamage(error: unknown): boolean {
  if (error instanceof SyntaxError) return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/** Runs `each` on the rows of `statement` up to the first damaged page; the rows before it count. */
function readUntilDamage(statement: () => SqliteStatement, each: (row: unknown) => void): void {
  try {
    for (const row of statement().iterate()) each(row);
  } catch (error) {
    if (!isDamage(error)) throw error;
  }
}

/** `read()`, or `fallback` when its pages are damaged. */
function unlessDamaged<T>(read: () => T, fallback: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!isDamage(error)) throw error;
    return fallback();
  }
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Every memory of a damaged database that can still be read, for `engram export` and
 * `engram doctor --repair`. A scan of the table stops at its first damaged page, so the memories
 * to read are gathered from every structure that lists them, each read up to its own damage: the
 * table from either end and each index of it (the index of ids also names the memories lost).
 * Each memory is then read by itself; its files and symbols fall back to their indexes' copies.
 */
export class SalvageReader {
  readonly tally: SalvageTally = { read: 0, incomplete: 0, unreadable: 0, unreadableIds: [] };
  private readonly statements;

  constructor(private readonly db: SqliteDatabase) {
    this.statements = lazyStatements({
      whole: () => prepareMemorySelect(db, 'WHERE m.rowid = ?'),
      columns: () => db.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.rowid = ?`).raw(),
      files: () => db.prepare('SELECT path FROM memory_files WHERE memory_rowid = ? ORDER BY path').pluck(),
      filesByIndex: () => db.prepare('SELECT path FROM memory_files INDEXED BY memory_files_path WHERE memory_rowid = ? ORDER BY path').pluck(),
      symbols: () => db.prepare('SELECT symbol FROM memory_symbols WHERE memory_rowid = ? ORDER BY symbol').pluck(),
      symbolsByIndex: () => db.prepare('SELECT symbol FROM memory_symbols INDEXED BY memory_symbols_symbol WHERE memory_rowid = ? ORDER BY symbol').pluck(),
      anchor: () => db.prepare(`SELECT ${ANCHOR_COLUMNS} FROM anchors a WHERE a.memory_rowid = ?`).raw(),
    });
  }

  /** The memories that can be read, by rowid ascending, as [rowid, memory]; `skip` leaves out (uncounted) ids already had. */
  *memories(skip: (id: string) => boolean = () => false): Generator<[number, Memory]> {
    const { rowids, idOf } = this.knownRowids();
    for (const rowid of rowids) {
      const known = idOf.get(rowid);
      if (known !== undefined && skip(known)) continue;
      const memory = this.read(rowid, known);
      if (memory && !skip(memory.id)) {
        this.tally.read++;
        yield [rowid, memory];
      }
    }
  }

  /** Rowids from the table read from both ends and from every index of it; ids from the index of ids. */
  private knownRowids(): { rowids: number[]; idOf: Map<number, string> } {
    const found = new Set<number>();
    const idOf = new Map<number, string>();
    const add = (rowid: unknown) => void found.add(rowid as number);
    readUntilDamage(() => this.db.prepare('SELECT rowid FROM memories ORDER BY rowid').pluck(), add);
    readUntilDamage(() => this.db.prepare('SELECT rowid FROM memories ORDER BY rowid DESC').pluck(), add);
    readUntilDamage(() => this.db.prepare('SELECT rowid, id FROM memories WHERE id IS NOT NULL ORDER BY id').raw(), (row) => {
      const [rowid, id] = row as [number, string];
      found.add(rowid);
      idOf.set(rowid, id);
    });
    const indexes = unlessDamaged(
      () => this.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'memories' AND sql IS NOT NULL AND sql NOT LIKE '%WHERE%'").pluck().all() as string[],
      () => [],
    );
    for (const index of indexes) readUntilDamage(() => this.db.prepare(`SELECT rowid FROM memories INDEXED BY ${quoted(index)}`).pluck(), add);
    return { rowids: [...found].sort((a, b) => a - b), idOf };
  }

  /** One memory: whole, or its own row with what can be read of the rest; null when its row is lost (counted) or not there. */
  private read(rowid: number, knownId: string | undefined): Memory | null {
    const whole = unlessDamaged(
      () => {
        const row = this.statements.whole.get(rowid) as MemoryRow | undefined;
        return row ? rowToMemory(row) : null;
      },
      () => undefined,
    );
    if (whole !== undefined) return whole;
    let columns: MemoryColumns | undefined;
    let missing = false;
    const partly = <T>(read: () => T, fallback: T): T =>
      unlessDamaged(read, () => {
        missing = true;
        return fallback;
      });
    try {
      columns = this.statements.columns.get(rowid) as MemoryColumns | undefined;
      if (!columns) return null;
      const files = partly(() => unlessDamaged(() => this.statements.files.all(rowid) as string[], () => this.statements.filesByIndex.all(rowid) as string[]), []);
      const symbols = partly(() => unlessDamaged(() => this.statements.symbols.all(rowid) as string[], () => this.statements.symbolsByIndex.all(rowid) as string[]), []);
      const anchor = partly<Anchor | null>(() => {
        const a = this.statements.anchor.get(rowid) as AnchorColumns | undefined;
        return a ? anchorFrom(a) : null;
      }, null);
      const memory = memoryFrom(columns, files, symbols, anchor);
      if (missing) this.tally.incomplete++;
      return memory;
    } catch (error) {
      if (!isDamage(error)) throw error;
      this.tally.unreadable++;
      const id = knownId ?? columns?.[1];
      if (id !== undefined && this.tally.unreadableIds.length < NAMED_IDS) this.tally.unreadableIds.push(id);
      return null;
    }
  }
}

/** "60 could not be read (m_…, m_… and 58 more)", for a report. */
export function describeUnreadable(tally: SalvageTally): string {
  const named = tally.unreadableIds.join(', ');
  const more = tally.unreadable - tally.unreadableIds.length;
  const list = named ? ` (${named}${more > 0 ? ` and ${more} more` : ''})` : '';
  return `${tally.unreadable.toLocaleString('en')} could not be read${list}`;
}
