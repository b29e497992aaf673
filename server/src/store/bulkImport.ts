import type { Memory } from '../memory/types';
import type { SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';
import type { ImportOutcome } from './memoryStore';
import { readMemoryOf, type PreparedMemory } from './preparedImport';

/** Page cache while a batch is written (the default is 2 MB). */
const BATCH_CACHE_KIB = 64 * 1024;
/** WAL pages after which a batch's commit checkpoints (the default is 1,000: 16 MB of 16 KB pages, 4 MB of 4 KB). */
const BATCH_CHECKPOINT_PAGES = 16_384;
/** FTS5's limit on pending terms while a batch is written, and its default. */
const BATCH_FTS_HASH_BYTES = 64 * 1024 * 1024;
const DEFAULT_FTS_HASH_BYTES = 1024 * 1024;

/** A step of a batch, in order: a run of new memories, or a newer copy of a stored one. */
type BatchWrite = { readonly added: PreparedMemory[] } | { readonly updated: Memory };

/**
 * MemoryStore.importMany's writes: the rows MemoryStore.write makes, one transaction a batch,
 * written the way SQLite takes many rows fastest (each choice below measured importing 100,000).
 */
export class BulkImport {
  private readonly statements;

  /** `update` replaces an existing memory (MemoryStore.write): rare in an import, so not made faster. */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly update: (memory: Memory) => void,
  ) {
    this.statements = lazyStatements({
      updatedAt: () => db.prepare('SELECT id, updated_at AS updatedAt FROM memories WHERE id IN (SELECT value FROM json_each(?))'),
      // OR ROLLBACK: a failed row fails the whole batch anyway, and without a statement that may
      // stop half-way SQLite keeps no statement journal, which copied ~7 pages for every row.
      insert: () => db.prepare(`INSERT OR ROLLBACK INTO memories (id, kind, title, body, why, source, session_id, source_ref, created_at, updated_at, importance, pin, status, meta, fts_tags)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      // A run's file and symbol rows in one statement each, as JSON [[rowid, text], …]: ~300,000
      // single-row statements at 100,000 memories cost more in calls than in SQLite. SQLite reads
      // JSON strings to the same bytes as a bound string, lone surrogates and NULs included.
      insertFiles: () => db.prepare('INSERT OR IGNORE INTO memory_files (memory_rowid, path) SELECT value ->> 0, value ->> 1 FROM json_each(?)'),
      insertSymbols: () => db.prepare('INSERT OR IGNORE INTO memory_symbols (memory_rowid, symbol) SELECT value ->> 0, value ->> 1 FROM json_each(?)'),
      insertAnchor: () => db.prepare(`INSERT INTO anchors (memory_rowid, path, start_line, start_character, end_line, end_character,
        content_hash, context_before, context_after, stale)
        VALUES (@rowid, @path, @startLine, @startCharacter, @endLine, @endCharacter, @contentHash, @contextBefore, @contextAfter, @stale)`),
      // The full-text rows of memories just written, read back in SQLite: as MemoryStore.write
      // inserts them (why null as ''), without crossing into SQLite a second time from JS.
      insertFts: () => db.prepare(`INSERT INTO memory_fts (rowid, title, body, why, tags)
        SELECT rowid, title, body, coalesce(why, ''), fts_tags FROM memories WHERE rowid IN (SELECT value FROM json_each(?))`),
      ftsHashSize: () => db.prepare("SELECT v FROM memory_fts_config WHERE k = 'hashsize'").pluck(),
      // FTS5 takes only an integer, and a JS number is bound as a real.
      setFtsHashSize: () => db.prepare("INSERT INTO memory_fts (memory_fts, rank) VALUES ('hashsize', CAST(? AS INTEGER))"),
    });
  }

  /**
   * Each memory added when new, replaced when newer than the stored copy, else left alone, in
   * order (a later copy in the same batch sees the earlier one); all or nothing. Redacted
   * beforehand (preparedImport.ts), so that the write lock is held for the writes only.
   */
  run(memories: readonly PreparedMemory[]): ImportOutcome[] {
    const settings = ['cache_size', 'wal_autocheckpoint', 'foreign_keys'].map((name) => [name, this.db.pragma(name, { simple: true })] as const);
    // Not checked: every row a batch adds refers to the memory row it has just written.
    this.db.pragma('foreign_keys = OFF');
    try {
      return this.write(memories);
    } finally {
      for (const [name, value] of settings) this.db.pragma(`${name} = ${Number(value)}`);
    }
  }

  // IMMEDIATE: a batch reads, then writes; a deferred transaction could not take the write lock
  // after another process wrote in between (SQLITE_BUSY_SNAPSHOT), and would fail the import.
  private write(memories: readonly PreparedMemory[]): ImportOutcome[] {
    const batch = this.db.transaction(() => {
      const { outcomes, writes } = this.plan(memories);
      if (writes.length === 0) return outcomes;
      // A batch touches thousands of index pages: SQLite's default 2 MB page cache spilled and
      // read them back, and checkpointing the WAL after every commit (each writes more than the
      // 1,000 pages that trigger it) copied them again. Put back by `run`, after the commit.
      this.db.pragma(`cache_size = ${-BATCH_CACHE_KIB}`);
      this.db.pragma(`wal_autocheckpoint = ${BATCH_CHECKPOINT_PAGES}`);
      this.withOneFtsSegment(() => {
        for (const step of writes) {
          if ('added' in step) this.insert(step.added);
          else this.update(step.updated);
        }
      });
      return outcomes;
    });
    return batch.immediate();
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
   * FTS5 writes its pending terms as a new index segment each 1 MB of them, and a batch makes
   * several: small segments, merged again and again as the import goes on (~20 % of its time).
   * With a larger limit the batch's terms become one segment. The setting is the table's, stored
   * in it, so it is put back in the same transaction and no other connection ever sees it (FTS5's
   * default, never stored before, is stored from then on: its shadow tables are read-only to us).
   */
  private withOneFtsSegment(write: () => void): void {
    const hashSize = (this.statements.ftsHashSize.get() as number | undefined) ?? DEFAULT_FTS_HASH_BYTES;
    this.statements.setFtsHashSize.run(BATCH_FTS_HASH_BYTES);
    write();
    // Setting it writes the pending terms first, as one segment.
    this.statements.setFtsHashSize.run(hashSize);
  }

  /**
   * New memories, then their file and symbol rows, and then all their full-text rows: FTS5
   * writes its pending terms as an index segment whenever a statement of the transaction opens a
   * savepoint (a plain insert into `memories` does, for its trigger and unique indexes), and
   * interleaved, every memory made a segment of its own to merge.
   */
  private insert(memories: readonly PreparedMemory[]): void {
    const rowids: number[] = [];
    const files: [number, string][] = [];
    const symbols: [number, string][] = [];
    for (const { stored: memory, tags } of memories) {
      // Positional parameters, without an object spread per row (within noise when measured; the plainer form).
      const { id, kind, title, body, why, source, sessionId, sourceRef, createdAt, updatedAt, importance, pin, status, meta } = memory;
      const rowid = Number(
        this.statements.insert.run(id, kind, title, body, why, source, sessionId, sourceRef, createdAt, updatedAt, importance, pin, status, JSON.stringify(meta), tags).lastInsertRowid,
      );
      for (const path of memory.files) files.push([rowid, path]);
      for (const symbol of memory.symbols) symbols.push([rowid, symbol]);
      if (memory.anchor) {
        this.statements.insertAnchor.run({ rowid, path: memory.anchor.path, ...memory.anchor.range, contentHash: memory.anchor.contentHash,
          contextBefore: memory.anchor.contextBefore, contextAfter: memory.anchor.contextAfter, stale: memory.anchor.stale ? 1 : 0 });
      }
      rowids.push(rowid);
    }
    this.statements.insertFiles.run(JSON.stringify(files));
    this.statements.insertSymbols.run(JSON.stringify(symbols));
    this.statements.insertFts.run(JSON.stringify(rowids));
  }
}
