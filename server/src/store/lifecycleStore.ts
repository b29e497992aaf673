import type { Statement } from 'better-sqlite3';
import { lazyStatements } from './lazyStatements';
import type { MemoryId, MemoryKind, MemoryStatus, PinLevel } from '../memory/types';
import type { SqliteDatabase } from './database';

/** An old diff memory tagged with a file and (unless it changed the file as a whole) a symbol. */
export interface DiffGroupMember {
  readonly file: string;
  /** '' for a change outside any symbol. */
  readonly symbol: string;
  readonly id: MemoryId;
  readonly updatedAt: number;
}

/** A memory as ranked for eviction: its rowid (to archive it cheaply) and its id. */
export interface RankedMemory {
  readonly rowid: number;
  readonly id: MemoryId;
}

/** Rows that point at a memory that no longer exists; all zero in a healthy database. */
export interface Orphans {
  readonly fts: number;
  readonly files: number;
  readonly symbols: number;
  readonly anchors: number;
  readonly links: number;
}

/** The eviction value as an SQL function, so candidates are ranked inside SQLite with the one formula. */
const VALUE_FUNCTION = 'engram_memory_value';

/** What a memory is worth keeping (capacity/value.ts), given to the store: ranked in SQLite, decided by capacity. */
export type MemoryValueOf = (memory: { kind: MemoryKind; importance: number; pin: PinLevel; updatedAt: number; lastUsedAt: number | null }, now: number) => number;

/** Why `rehearse` rolls back: not a failure, the transaction's only way out without committing. */
class Rehearsal extends Error {}

/**
 * SQL for a memory's life after it is written: status changes (archive, forget, restore), ranking
 * for eviction, finding diffs to consolidate, and purging for good. MemoryStore owns content;
 * this store only moves memories between statuses or deletes them with everything that points at them.
 */
export class LifecycleStore {
  private readonly statements: {
    activeCount: Statement;
    states: Statement;
    setStatus: Statement;
    lowestValue: Statement;
    archiveRows: Statement;
    idsWithStatus: Statement;
    oldDiffs: Statement;
    deleteFts: Statement;
    deleteInjections: Statement;
    deleteMemories: Statement;
    orphans: Statement;
  };

  constructor(
    private readonly db: SqliteDatabase,
    valueOf: MemoryValueOf,
  ) {
    db.function(VALUE_FUNCTION, { deterministic: true }, (kind, importance, pin, updatedAt, lastUsedAt, now) =>
      valueOf(
        { kind: kind as MemoryKind, importance: importance as number, pin: pin as PinLevel, updatedAt: updatedAt as number, lastUsedAt: lastUsedAt as number | null },
        now as number,
      ),
    );
    const ids = 'SELECT value FROM json_each(@ids)';
    this.statements = lazyStatements({
      activeCount: () => db.prepare("SELECT count(*) FROM memories WHERE status = 'active'").pluck(),
      states: () => db.prepare(`SELECT id, kind, title, status, pin FROM memories WHERE id IN (${ids})`),
      setStatus: () => db.prepare(`UPDATE memories SET status = @status WHERE id IN (${ids}) AND status != @status RETURNING id`).pluck(),
      // Ranked in SQLite; only rowids and ids come back, never the memories.
      lowestValue: () => db.prepare(`SELECT m.rowid, m.id FROM memories m
        LEFT JOIN memory_usage u ON u.memory_rowid = m.rowid
        WHERE m.status = 'active' AND m.pin != 'hard'
        ORDER BY ${VALUE_FUNCTION}(m.kind, m.importance, m.pin, m.updated_at, max(coalesce(u.last_shown_at, 0), coalesce(u.last_acted_at, 0)), @now)
        LIMIT @limit`),
      // Re-checks status and pin: between ranking and this batch, a memory may have been pinned or archived by hand.
      archiveRows: () => db.prepare(`UPDATE memories SET status = 'archived'
        WHERE rowid IN (SELECT value FROM json_each(@rowids)) AND status = 'active' AND pin != 'hard' RETURNING rowid`).pluck(),
      idsWithStatus: () => db.prepare('SELECT id FROM memories WHERE status = @status ORDER BY rowid').pluck(),
      oldDiffs: () => db.prepare(`WITH old AS (
          SELECT m.rowid, m.id, m.updated_at FROM memories m
          WHERE m.kind = 'diff' AND m.status = 'active' AND m.pin = 'none' AND m.updated_at < @before AND m.source != 'git'
            AND m.rowid NOT IN (SELECT to_rowid FROM memory_links WHERE relation = 'summarizes')
        ), tagged AS (
          SELECT f.path AS file, coalesce(s.symbol, '') AS symbol, old.id AS id, old.updated_at AS updatedAt
          FROM old JOIN memory_files f ON f.memory_rowid = old.rowid LEFT JOIN memory_symbols s ON s.memory_rowid = old.rowid
        )
        SELECT file, symbol, id, updatedAt FROM tagged
        WHERE (file, symbol) IN (SELECT file, symbol FROM tagged GROUP BY file, symbol HAVING count(*) >= @minGroup)
        ORDER BY file, symbol, updatedAt, id`),
      // The FTS table is not tied to memories by a foreign key: its row goes explicitly, before the memory's rowid can be reused.
      deleteFts: () => db.prepare(`DELETE FROM memory_fts WHERE rowid IN (SELECT rowid FROM memories WHERE id IN (${ids}))`),
      deleteInjections: () => db.prepare(`DELETE FROM injections WHERE memory_id IN (${ids})`),
      // Files, symbols, anchor and links go with the row (ON DELETE CASCADE).
      deleteMemories: () => db.prepare(`DELETE FROM memories WHERE id IN (${ids})`),
      orphans: () => db.prepare(`SELECT
          (SELECT count(*) FROM memory_fts_docsize WHERE id NOT IN (SELECT rowid FROM memories)) AS fts,
          (SELECT count(*) FROM memory_files WHERE memory_rowid NOT IN (SELECT rowid FROM memories)) AS files,
          (SELECT count(*) FROM memory_symbols WHERE memory_rowid NOT IN (SELECT rowid FROM memories)) AS symbols,
          (SELECT count(*) FROM anchors WHERE memory_rowid NOT IN (SELECT rowid FROM memories)) AS anchors,
          (SELECT count(*) FROM memory_links WHERE from_rowid NOT IN (SELECT rowid FROM memories) OR to_rowid NOT IN (SELECT rowid FROM memories)) AS links`),
    });
  }

  activeCount(): number {
    return this.statements.activeCount.get() as number;
  }

  /** Kind, title, status and pin of each id that exists; unknown ids are simply absent. */
  states(ids: readonly string[]): Map<MemoryId, { kind: MemoryKind; title: string; status: MemoryStatus; pin: PinLevel }> {
    const rows = this.statements.states.all({ ids: JSON.stringify(ids) }) as { id: MemoryId; kind: MemoryKind; title: string; status: MemoryStatus; pin: PinLevel }[];
    return new Map(rows.map(({ id, ...state }) => [id, state]));
  }

  /**
   * Moves memories to `status`; returns the ids that changed. `updated_at` stays the memory's own
   * time: an archived memory found by search must not look fresh.
   */
  setStatus(ids: readonly string[], status: MemoryStatus): MemoryId[] {
    return this.statements.setStatus.all({ ids: JSON.stringify(ids), status }) as MemoryId[];
  }

  /** The `limit` active memories worth least (see `memoryValue`), lowest first: unpinned, then soft pins, never hard pins. */
  lowestValue(limit: number, now: number): RankedMemory[] {
    return this.statements.lowestValue.all({ limit, now }) as RankedMemory[];
  }

  /** Archives the given active, not hard-pinned memories; returns the rowids it archived. */
  archiveRows(rowids: readonly number[]): Set<number> {
    return this.transaction(() => new Set(this.statements.archiveRows.all({ rowids: JSON.stringify(rowids) }) as number[]));
  }

  idsWithStatus(status: MemoryStatus): MemoryId[] {
    return this.statements.idsWithStatus.all({ status }) as MemoryId[];
  }

  /**
   * Active, unpinned, not yet summarized diff memories last updated before `before`, one row per
   * file and symbol they are tagged with, for the (file, symbol) pairs that have `minGroup` or more.
   * Commits of the git history are left as they are: git keeps them anyway, and every one of them
   * is old, so the rule would fold a whole imported history a minute after it arrived.
   */
  oldDiffs(before: number, minGroup: number): DiffGroupMember[] {
    return this.statements.oldDiffs.all({ before, minGroup }) as DiffGroupMember[];
  }

  /** Deletes memories for good, with their index entry, tags, anchor, links and injection records; returns how many. */
  purge(ids: readonly string[]): number {
    const params = { ids: JSON.stringify(ids) };
    return this.transaction(() => {
      this.statements.deleteFts.run(params);
      this.statements.deleteInjections.run(params);
      return this.statements.deleteMemories.run(params).changes;
    });
  }

  orphans(): Orphans {
    return this.statements.orphans.get() as Orphans;
  }

  /** Reads in one snapshot: what `work` reads is consistent, and other writers are not blocked. */
  snapshot<T>(work: () => T): T {
    return this.db.transaction(work).deferred();
  }

  /** Runs `work` in one write transaction, taking the write lock first so what it reads stays true until it commits. */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }

  /** Runs `work` in a write transaction and rolls it back: what it returns is what would have happened. */
  rehearse<T>(work: () => T): T {
    const rehearsal = new Rehearsal();
    let result = undefined as { value: T } | undefined;
    try {
      this.db.transaction(() => {
        result = { value: work() };
        throw rehearsal;
      }).immediate();
    } catch (error) {
      if (error !== rehearsal) throw error;
    }
    return result!.value;
  }
}
