import type { Memory } from '../memory/types';
import type { SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';
import { readMemoryOf, type PreparedMemory } from './preparedImport';

/** Page cache while a batch is written (the default is 2 MB). */
const BATCH_CACHE_KIB = 64 * 1024;
/** WAL pages after which a batch's commit checkpoints (the default is 1,000: 16 MB of 16 KB pages, 4 MB of 4 KB). */
const BATCH_CHECKPOINT_PAGES = 16_384;
/** FTS5's limit on pending terms while a batch is written, and its default. */
const BATCH_FTS_HASH_BYTES = 64 * 1024 * 1024;
const DEFAULT_FTS_HASH_BYTES = 1024 * 1024;

/** What taking one memory did: new, newer than the stored copy, or not newer. */
export type ImportOutcome = 'added' | 'updated' | 'unchanged';

/** A step of a batch, in order: a run of new memories, or a newer copy of a stored one. */
type BatchWrite = { readonly added: PreparedMemory[] } | { readonly updated: Memory };

/**
 * One transaction of a bulk import, over memories given in several parts (`engram import` writes
 * each batch its reader thread sends as it comes: see cli/import/importTransactions.ts).
 */
export interface ImportTransaction {
  /**
   * Each memory added when new, replaced when newer than the stored copy, else left alone, in
   * order (a later copy sees an earlier one, in this call or an earlier one of the transaction).
   */
  add(memories: readonly PreparedMemory[]): ImportOutcome[];
  /** Writes the full-text rows of the memories added and commits. */
  commit(): void;
  /** Undoes all the transaction wrote (SQLite may have rolled back already: a failed row does). */
  rollback(): void;
}

/**
 * MemoryImports.importMany's writes: the rows MemoryWrites.write makes, in transactions of many
 * memories, written the way SQLite takes many rows fastest (each choice below measured importing 100,000).
 */
export class BulkImport {
  private readonly statements;

  /** `update` replaces an existing memory (MemoryWrites.write): rare in an import, so not made faster. */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly update: (memory: Memory) => void,
  ) {
    this.statements = lazyStatements({
      updatedAt: () => db.prepare('SELECT id, updated_at AS updatedAt FROM memories WHERE id IN (SELECT value FROM json_each(?))'),
      // OR ROLLBACK: a failed row fails the whole transaction anyway, and without a statement that may
      // stop half-way SQLite keeps no statement journal, which copied ~7 pages for every row.
      insert: () => db.prepare(`INSERT OR ROLLBACK INTO memories (id, kind, title, body, why, source, session_id, source_ref, created_at, updated_at, importance, pin, status, meta, fts_tags)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      // A run's file and symbol rows in one statement each, as JSON [[rowid, text], …]: ~300,000
      // single-row statements at 100,000 memories cost more in calls than in SQLite. SQLite reads
      // JSON strings to the same bytes as a bound string, NULs included, once lone surrogates are
      // made U+FFFD as binding makes them (SQLite's JSON keeps them as invalid UTF-8).
      insertFiles: () => db.prepare('INSERT OR IGNORE INTO memory_files (memory_rowid, path) SELECT value ->> 0, value ->> 1 FROM json_each(?)'),
      insertSymbols: () => db.prepare('INSERT OR IGNORE INTO memory_symbols (memory_rowid, symbol) SELECT value ->> 0, value ->> 1 FROM json_each(?)'),
      insertAnchor: () => db.prepare(`INSERT INTO anchors (memory_rowid, path, start_line, start_character, end_line, end_character,
        content_hash, context_before, context_after, stale)
        VALUES (@rowid, @path, @startLine, @startCharacter, @endLine, @endCharacter, @contentHash, @contextBefore, @contextAfter, @stale)`),
      // The full-text rows of memories just written, read back in SQLite: as MemoryWrites.write
      // inserts them (why null as ''), without crossing into SQLite a second time from JS.
      insertFts: () => db.prepare(`INSERT INTO memory_fts (rowid, title, body, why, tags)
        SELECT rowid, title, body, coalesce(why, ''), fts_tags FROM memories WHERE rowid IN (SELECT value FROM json_each(?))`),
      ftsHashSize: () => db.prepare("SELECT v FROM memory_fts_config WHERE k = 'hashsize'").pluck(),
      // FTS5 takes only an integer, and a JS number is bound as a real.
      setFtsHashSize: () => db.prepare("INSERT INTO memory_fts (memory_fts, rank) VALUES ('hashsize', CAST(? AS INTEGER))"),
      begin: () => db.prepare('BEGIN IMMEDIATE'),
      commit: () => db.prepare('COMMIT'),
      rollback: () => db.prepare('ROLLBACK'),
    });
  }

  /** All of `memories` in one transaction (ImportTransaction.add); all or nothing. */
  run(memories: readonly PreparedMemory[]): ImportOutcome[] {
    const transaction = this.begin();
    try {
      const outcomes = transaction.add(memories);
      transaction.commit();
      return outcomes;
    } catch (error) {
      transaction.rollback();
      throw error;
    }
  }

  /**
   * A transaction to add memories to in parts. Redacted beforehand (preparedImport.ts), so that
   * the write lock is held for the writes only. The connection's settings change until it ends.
   */
  begin(): ImportTransaction {
    const settings = ['cache_size', 'wal_autocheckpoint', 'foreign_keys'].map((name) => [name, this.db.pragma(name, { simple: true })] as const);
    const restore = () => {
      for (const [name, value] of settings) this.db.pragma(`${name} = ${Number(value)}`);
    };
    // Not checked: every row an import adds refers to the memory row it has just written.
    // (SQLite changes it only outside a transaction.)
    this.db.pragma('foreign_keys = OFF');
    try {
      // IMMEDIATE: a transaction reads, then writes; a deferred one could not take the write lock
      // after another process wrote in between (SQLITE_BUSY_SNAPSHOT), and would fail the import.
      this.statements.begin.run();
    } catch (error) {
      restore();
      throw error;
    }
    let state: 'unwritten' | 'writing' | 'ended' = 'unwritten';
    let hashSize = DEFAULT_FTS_HASH_BYTES;
    // Added memories whose full-text rows are not written yet.
    const unindexed: number[] = [];
    const writeFts = () => {
      if (unindexed.length) this.statements.insertFts.run(JSON.stringify(unindexed));
      unindexed.length = 0;
    };
    const end = () => {
      state = 'ended';
      restore();
    };
    const open = () => {
      if (state === 'ended') throw new Error('the import transaction has ended');
    };
    return {
      add: (memories) => {
        open();
        const { outcomes, writes } = this.plan(memories);
        for (const step of writes) {
          if (state === 'unwritten') {
            // A transaction touches thousands of index pages: SQLite's default 2 MB page cache
            // spilled and read them back, and checkpointing the WAL after every commit (each writes
            // more than the 1,000 pages that trigger it) copied them again. Put back at the end.
            this.db.pragma(`cache_size = ${-BATCH_CACHE_KIB}`);
            this.db.pragma(`wal_autocheckpoint = ${BATCH_CHECKPOINT_PAGES}`);
            hashSize = this.raiseFtsPendingLimit();
            state = 'writing';
          }
          if ('added' in step) {
            this.insert(step.added, unindexed);
          } else {
            // MemoryWrites.write replaces the full-text row of a memory this transaction may have added.
            writeFts();
            this.update(step.updated);
          }
        }
        return outcomes;
      },
      commit: () => {
        open();
        if (state === 'writing') {
          writeFts();
          // Setting it writes the pending terms first, as one segment.
          this.statements.setFtsHashSize.run(hashSize);
        }
        this.statements.commit.run();
        end();
      },
      rollback: () => {
        if (state === 'ended') return;
        if (this.db.inTransaction) this.statements.rollback.run();
        end();
      },
    };
  }

  /** What importing one by one would do, from one read of the batch's stored copies. */
  private plan(memories: readonly PreparedMemory[]): { outcomes: ImportOutcome[]; writes: BatchWrite[] } {
    const ids = JSON.stringify(memories.map((m) => m.stored.id));
    const updatedAt = new Map((this.statements.updatedAt.all(ids) as { id: string; updatedAt: number }[]).map((r) => [r.id, r.updatedAt]));
    const outcomes: ImportOutcome[] = [];
    const writes: BatchWrite[] = [];
    for (const prepared of memories) {
      const memory = prepared.stored;
      const stored = updatedAt.get(memory.id);
      if (stored !== undefined && memory.updatedAt <= stored) {
        outcomes.push('unchanged');
        continue;
      }
      if (stored === undefined) {
        const last = writes.at(-1);
        if (last && 'added' in last) last.added.push(prepared);
        else writes.push({ added: [prepared] });
        outcomes.push('added');
      } else {
        writes.push({ updated: readMemoryOf(prepared) });
        outcomes.push('updated');
      }
      updatedAt.set(memory.id, memory.updatedAt);
    }
    return { outcomes, writes };
  }

  /**
   * FTS5 writes its pending terms as a new index segment each 1 MB of them, and a transaction
   * makes several: small segments, merged again and again as the import goes on (~20 % of its
   * time). With a larger limit the transaction's terms become one segment. The setting is the
   * table's, stored in it, so it is put back in the same transaction (ImportTransaction.commit)
   * and no other connection ever sees it (FTS5's default, never stored before, is stored from
   * then on: its shadow tables are read-only to us). Returns the setting to put back.
   */
  private raiseFtsPendingLimit(): number {
    const hashSize = (this.statements.ftsHashSize.get() as number | undefined) ?? DEFAULT_FTS_HASH_BYTES;
    this.statements.setFtsHashSize.run(BATCH_FTS_HASH_BYTES);
    return hashSize;
  }

  /**
   * New memories and their file and symbol rows; their rowids are added to `unindexed`, whose
   * full-text rows are written later, all at once: FTS5 writes its pending terms as an index
   * segment whenever a statement of the transaction opens a savepoint (a plain insert into
   * `memories` does, for its trigger and unique indexes), and interleaved, every memory made a
   * segment of its own to merge.
   */
  private insert(memories: readonly PreparedMemory[], unindexed: number[]): void {
    const files: [number, string][] = [];
    const symbols: [number, string][] = [];
    for (const { stored: memory, tags } of memories) {
      // Positional parameters, without an object spread per row (within noise when measured; the plainer form).
      const { id, kind, title, body, why, source, sessionId, sourceRef, createdAt, updatedAt, importance, pin, status, meta } = memory;
      const rowid = Number(
        this.statements.insert.run(id, kind, title, body, why, source, sessionId, sourceRef, createdAt, updatedAt, importance, pin, status, JSON.stringify(meta), tags).lastInsertRowid,
      );
      for (const path of memory.files) files.push([rowid, path.toWellFormed()]);
      for (const symbol of memory.symbols) symbols.push([rowid, symbol.toWellFormed()]);
      if (memory.anchor) {
        this.statements.insertAnchor.run({ rowid, path: memory.anchor.path, ...memory.anchor.range, contentHash: memory.anchor.contentHash,
          contextBefore: memory.anchor.contextBefore, contextAfter: memory.anchor.contextAfter, stale: memory.anchor.stale ? 1 : 0 });
      }
      unindexed.push(rowid);
    }
    this.statements.insertFiles.run(JSON.stringify(files));
    this.statements.insertSymbols.run(JSON.stringify(symbols));
  }
}
