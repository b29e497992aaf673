import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { Redactor } from '../secrets/redact';
import type { Memory } from '../memory/types';
import { moveAside, openDatabase, type SqliteDatabase } from './database';
import { integrityProblems } from './integrity';
import { MemoryStore } from './memoryStore';
import { findNativeBinding } from './nativeBinding';
import { isDamage, SalvageReader, type SalvageTally } from './salvageReader';
import { StoreError } from './storeProblem';

/** Memories written to the repaired database at a time. */
const BATCH = 1000;
/** How long to wait for another process to let go of the database before saying it is in use. */
const IN_USE_WAIT_MS = 1000;

/** The tables of Engram's own records besides memories, copied as they are, in an order their references allow. */
const PLAIN_TABLES = ['sessions', 'ingest_offsets', 'injections', 'editor_state', 'compactions', 'file_blobs', 'file_snapshots'] as const;

export type RepairOutcome =
  /** The integrity check found nothing wrong: nothing was changed. */
  | { readonly repaired: false }
  | {
      readonly repaired: true;
      /** Where the damaged file was moved (never deleted). */
      readonly damagedFile: string;
      readonly memories: Readonly<SalvageTally>;
      /** Rows of the other records (sessions, ingest offsets, injections, snapshots…) copied, and tables with damaged pages. */
      readonly otherRows: number;
      readonly damagedTables: readonly string[];
    };

/** Opens the damaged database alone: another connection would keep writing to the file once it is moved aside. */
function openAlone(file: string): SqliteDatabase {
  const db = new Database(file, { nativeBinding: findNativeBinding(), fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${IN_USE_WAIT_MS}`);
    db.pragma('locking_mode = EXCLUSIVE');
    // The first read takes the exclusive lock, or fails while anyone else has the file open.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    return db;
  } catch (error) {
    db.close();
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) {
      throw new StoreError('locked', `the memory database ${file} is in use by another process (VS Code's memory server, an MCP server, a hook): close the VS Code windows on this project and stop agents using Engram, then run \`engram doctor --repair\` again`, { cause: error });
    }
    throw error;
  }
}

function columnsOf(db: SqliteDatabase, table: string): string[] {
  return (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);
}

/** Copies the readable rows of `table` (read from both ends when a page is damaged); whether it met damage. */
function copyRows(from: SqliteDatabase, to: SqliteDatabase, table: string, mapRow: (row: Record<string, unknown>) => Record<string, unknown> | null = (row) => row): { copied: number; damaged: boolean } {
  const have = new Set(columnsOf(to, table));
  const columns = columnsOf(from, table).filter((c) => have.has(c));
  if (!columns.length) return { copied: 0, damaged: false };
  const list = columns.map((c) => `"${c}"`).join(', ');
  const insert = to.prepare(`INSERT OR IGNORE INTO ${table} (${list}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
  let copied = 0;
  let damaged = false;
  const copy = (row: Record<string, unknown>) => {
    const mapped = mapRow(row);
    if (!mapped) return;
    try {
      copied += insert.run(mapped).changes;
    } catch (error) {
      // A row that refers to one lost to the damage (a snapshot of a lost blob) is left out.
      if (!String((error as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT')) throw error;
    }
  };
  const withoutRowid = /WITHOUT\s+ROWID/i.test((from.prepare("SELECT sql FROM sqlite_schema WHERE name = ?").pluck().get(table) as string | undefined) ?? '');
  for (const order of withoutRowid ? [''] : ['ORDER BY rowid', 'ORDER BY rowid DESC']) {
    try {
      for (const row of from.prepare(`SELECT ${list} FROM ${table} ${order}`).iterate() as IterableIterator<Record<string, unknown>>) copy(row);
      break;
    } catch (error) {
      if (!isDamage(error)) throw error;
      damaged = true;
    }
  }
  return { copied, damaged };
}

/**
 * Rebuilds a damaged project database with everything that can still be read: every readable
 * memory (store/salvageReader.ts) goes into a new database through the import's writes (tags,
 * pinned lines and full-text index made anew), then Engram's other records (sessions, what
 * transcripts were read, the injection log, file snapshots, usage and links between memories).
 * The damaged file is moved aside, never deleted. Refuses while another process has it open.
 * A sound database is left alone.
 */
export function repairDatabase(file: string): RepairOutcome {
  const damaged = openAlone(file);
  const repairedFile = `${file}.repairing-${process.pid}`;
  let repaired: SqliteDatabase | undefined;
  try {
    if (!integrityProblems(damaged, 1).length) return { repaired: false };
    rmSync(repairedFile, { force: true });
    repaired = openDatabase(repairedFile).db;
    const store = new MemoryStore(repaired, new Redactor());
    const salvage = new SalvageReader(damaged);
    const idOfRowid = new Map<number, string>();
    let batch: Memory[] = [];
    for (const [rowid, memory] of salvage.memories()) {
      idOfRowid.set(rowid, memory.id);
      batch.push(memory);
      if (batch.length >= BATCH) {
        store.importMany(batch);
        batch = [];
      }
    }
    if (batch.length) store.importMany(batch);
    if (store.termStats.isStale()) store.termStats.recount();

    const newRowid = repaired.prepare('SELECT rowid FROM memories WHERE id = ?').pluck();
    const mapped = (rowid: unknown) => {
      const id = idOfRowid.get(rowid as number);
      return id === undefined ? undefined : (newRowid.get(id) as number | undefined);
    };
    const results: [string, { copied: number; damaged: boolean }][] = [];
    const target = repaired;
    target.transaction(() => {
      for (const table of PLAIN_TABLES) results.push([table, copyRows(damaged, target, table)]);
      results.push([
        'memory_usage',
        copyRows(damaged, target, 'memory_usage', (row) => {
          const memoryRowid = mapped(row.memory_rowid);
          return memoryRowid === undefined ? null : { ...row, memory_rowid: memoryRowid };
        }),
      ]);
      results.push([
        'memory_links',
        copyRows(damaged, target, 'memory_links', (row) => {
          const [from, to] = [mapped(row.from_rowid), mapped(row.to_rowid)];
          return from === undefined || to === undefined ? null : { ...row, from_rowid: from, to_rowid: to };
        }),
      ]);
    })();
    // One self-contained file to move into place; the next open turns WAL on again.
    repaired.pragma('journal_mode = DELETE');
    repaired.close();
    repaired = undefined;
    damaged.close();
    const damagedFile = moveAside(file);
    try {
      renameSync(repairedFile, file);
    } catch (error) {
      renameSync(damagedFile, file);
      throw error;
    }
    return {
      repaired: true,
      damagedFile,
      memories: salvage.tally,
      otherRows: results.reduce((sum, [, r]) => sum + r.copied, 0),
      damagedTables: results.filter(([, r]) => r.damaged).map(([table]) => table),
    };
  } finally {
    if (damaged.open) damaged.close();
    if (repaired?.open) repaired.close();
    if (existsSync(repairedFile)) for (const suffix of ['', '-wal', '-shm']) rmSync(repairedFile + suffix, { force: true });
  }
}
