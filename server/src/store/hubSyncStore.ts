import type { SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';

/** A local memory's tie to the hub: its key there, the hub version it last agreed with, its record's hash then. */
export interface HubLink {
  readonly memoryId: string;
  readonly hubKey: string;
  readonly hubSeq: number;
  readonly recordHash: string;
}

/** Where this store stands with the hub (migration 015). */
export interface HubSyncState {
  readonly following: boolean;
  readonly hubId: string | null;
  readonly project: string | null;
  /** The last hub sequence number pulled. */
  readonly cursor: number;
  readonly lastSyncAt: number | null;
  readonly lastError: string | null;
  readonly lastErrorAt: number | null;
}

/** One queued local change: the memory's id and the newest queue entry for it. */
export interface OutboxEntry {
  readonly memoryId: string;
  readonly seq: number;
}

const NOT_APPLYING = 1;
const APPLYING = 2;

/**
 * The outbox, links and cursor of team hub sync (hub/…): SQL only, the decisions are in hub/.
 * Every write is a transaction; pulls write IMMEDIATE so two processes syncing one store (the
 * memory server and `engram team sync`) take turns instead of failing.
 */
export class HubSyncStore {
  private readonly statements;

  constructor(private readonly db: SqliteDatabase) {
    this.statements = lazyStatements({
      state: () => db.prepare(`SELECT following, hub_id AS hubId, project, cursor, last_sync_at AS lastSyncAt, last_error AS lastError, last_error_at AS lastErrorAt FROM hub_sync WHERE id = 1`),
      follow: () => db.prepare(`UPDATE hub_sync SET following = ${NOT_APPLYING}, hub_id = @hubId, project = @project, cursor = 0 WHERE id = 1`),
      setApplying: () => db.prepare('UPDATE hub_sync SET following = @following WHERE id = 1'),
      enqueueAll: () => db.prepare('INSERT INTO hub_outbox (memory_id) SELECT id FROM memories ORDER BY rowid'),
      clearOutbox: () => db.prepare('DELETE FROM hub_outbox'),
      forgetVersions: () => db.prepare("UPDATE hub_links SET hub_seq = 0, record_hash = ''"),
      nextEntries: () => db.prepare('SELECT memory_id AS memoryId, seq FROM hub_outbox ORDER BY seq LIMIT @limit'),
      dropEntries: () => db.prepare('DELETE FROM hub_outbox WHERE memory_id = @memoryId AND seq <= @seq'),
      pendingCount: () => db.prepare('SELECT count(DISTINCT memory_id) FROM hub_outbox').pluck(),
      isPending: () => db.prepare('SELECT 1 FROM hub_outbox WHERE memory_id = ? LIMIT 1').pluck(),
      linkOf: () => db.prepare('SELECT memory_id AS memoryId, hub_key AS hubKey, hub_seq AS hubSeq, record_hash AS recordHash FROM hub_links WHERE memory_id = ?'),
      linkByKey: () => db.prepare('SELECT memory_id AS memoryId, hub_key AS hubKey, hub_seq AS hubSeq, record_hash AS recordHash FROM hub_links WHERE hub_key = ?'),
      unlinkKey: () => db.prepare('DELETE FROM hub_links WHERE hub_key = ? OR memory_id = ?'),
      link: () => db.prepare(`INSERT INTO hub_links (memory_id, hub_key, hub_seq, record_hash) VALUES (@memoryId, @hubKey, @hubSeq, @recordHash)
        ON CONFLICT (memory_id) DO UPDATE SET hub_key = excluded.hub_key, hub_seq = excluded.hub_seq, record_hash = excluded.record_hash`),
      linkCount: () => db.prepare('SELECT count(*) FROM hub_links').pluck(),
      idBySourceRef: () => db.prepare('SELECT id FROM memories WHERE source_ref = ?').pluck(),
      advance: () => db.prepare('UPDATE hub_sync SET cursor = max(cursor, @cursor) WHERE id = 1'),
      synced: () => db.prepare('UPDATE hub_sync SET last_sync_at = @at, last_error = NULL, last_error_at = NULL WHERE id = 1'),
      failed: () => db.prepare('UPDATE hub_sync SET last_error = @message, last_error_at = @at WHERE id = 1'),
    });
  }

  state(): HubSyncState {
    const row = this.statements.state.get() as Omit<HubSyncState, 'following'> & { following: number };
    return { ...row, following: row.following !== 0 };
  }

  /**
   * Starts (or restarts, for another hub or project) following: every memory is queued once, so
   * the first push offers what the store already holds. Links keep their keys (a memory keeps its
   * one name everywhere) but forget the versions and hashes, which were the other hub's: all is pushed again.
   */
  follow(hubId: string, project: string): void {
    this.db.transaction(() => {
      this.statements.clearOutbox.run();
      this.statements.forgetVersions.run();
      this.statements.follow.run({ hubId, project });
      this.statements.enqueueAll.run();
    }).immediate();
  }

  /**
   * The oldest queued changes (up to `limit` entries, by the queue's primary key: no scan of the
   * rest), one per memory with its newest entry among them. Entries of a memory past the page stay
   * and push again later, a no-op when nothing changed since.
   */
  nextEntries(limit: number): OutboxEntry[] {
    const newest = new Map<string, number>();
    for (const row of this.statements.nextEntries.all({ limit }) as OutboxEntry[]) newest.set(row.memoryId, row.seq);
    return [...newest].map(([memoryId, seq]) => ({ memoryId, seq }));
  }

  /** Whether a memory has a local change not yet pushed. */
  isPending(memoryId: string): boolean {
    return this.statements.isPending.get(memoryId) !== undefined;
  }

  pendingCount(): number {
    return this.statements.pendingCount.get() as number;
  }

  linkCount(): number {
    return this.statements.linkCount.get() as number;
  }

  /** The id of the memory with this `sourceRef`, without reading the memory (a pull asks once per new key). */
  memoryIdBySourceRef(sourceRef: string): string | null {
    return (this.statements.idBySourceRef.get(sourceRef) as string | undefined) ?? null;
  }

  linkOf(memoryId: string): HubLink | null {
    return (this.statements.linkOf.get(memoryId) as HubLink | undefined) ?? null;
  }

  linkByKey(hubKey: string): HubLink | null {
    return (this.statements.linkByKey.get(hubKey) as HubLink | undefined) ?? null;
  }

  /** After a push: each memory's new link, and its queue entries up to what was pushed gone, in one transaction. */
  pushed(done: readonly { readonly entry: OutboxEntry; readonly link: HubLink | null; readonly unlinkKey?: string }[]): void {
    this.db.transaction(() => {
      for (const { entry, link, unlinkKey } of done) {
        if (unlinkKey) this.statements.unlinkKey.run(unlinkKey, '');
        if (link) this.setLink(link);
        this.statements.dropEntries.run({ memoryId: entry.memoryId, seq: entry.seq });
      }
    }).immediate();
  }

  setLink(link: HubLink): void {
    // A key moves to this memory: any other memory's tie to it goes.
    const holder = this.linkByKey(link.hubKey);
    if (holder && holder.memoryId !== link.memoryId) this.statements.unlinkKey.run(link.hubKey, '');
    this.statements.link.run(link);
  }

  /**
   * Applies a page pulled from the hub in one IMMEDIATE transaction, with the outbox trigger off
   * (what arrives is not queued back), and moves the cursor with it: a crash applies all or none.
   */
  applyPulled<T>(cursor: number, apply: () => T): T {
    return this.db.transaction(() => {
      this.statements.setApplying.run({ following: APPLYING });
      try {
        return apply();
      } finally {
        this.statements.setApplying.run({ following: NOT_APPLYING });
        this.statements.advance.run({ cursor });
      }
    }).immediate();
  }

  synced(at: number): void {
    this.statements.synced.run({ at });
  }

  /** The last error, for `engram team status` (already redacted and free of credentials). */
  failed(message: string, at: number): void {
    this.statements.failed.run({ message, at });
  }
}
