import type { Statement } from 'better-sqlite3';
import { lazyStatements } from './lazyStatements';
import type { SqliteDatabase } from './database';
import { InjectionBacklog, type GivenContext } from './injectionBacklog';

export type { GivenContext } from './injectionBacklog';

export interface Injection {
  readonly sessionId: string;
  /** The hook event (or tool) that gave it: session-start, user-prompt-submit, … */
  readonly event: string;
  readonly memoryId: string;
  readonly tokens: number;
  readonly createdAt: number;
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * The injection log: what Engram gave each agent session, when, and how many tokens — so a
 * session is never given the same memory twice, and the user can see what the agent was told.
 * What a hook could not log at once (another writer held the database) waits in a backlog beside
 * the database (injectionBacklog.ts) and counts as given meanwhile.
 */
export class InjectionStore {
  private readonly statements: { insert: Statement; given: Statement; forSession: Statement; forget: Statement; latest: Statement };
  private readonly backlog: InjectionBacklog;

  constructor(private readonly db: SqliteDatabase) {
    this.backlog = new InjectionBacklog(`${db.name}.pending-injections`);
    this.statements = lazyStatements({
      insert: () => db.prepare(`INSERT INTO injections (session_id, event, memory_id, tokens, created_at)
        SELECT @sessionId, @event, json_extract(value, '$.memoryId'), json_extract(value, '$.tokens'), @createdAt FROM json_each(@items) ORDER BY key`),
      given: () => db.prepare('SELECT DISTINCT memory_id AS id FROM injections WHERE session_id = ?'),
      forSession: () => db.prepare('SELECT session_id AS sessionId, event, memory_id AS memoryId, tokens, created_at AS createdAt FROM injections WHERE session_id = ? ORDER BY id'),
      forget: () => db.prepare('DELETE FROM injections WHERE session_id = ? AND created_at >= ?'),
      // The last row written, by rowid: ordering by created_at had no index and scanned the whole
      // log (~55 ms at 470,000 rows), once a second in the memory server.
      latest: () => db.prepare(`SELECT session_id AS sessionId, count(DISTINCT memory_id) AS memories, sum(tokens) AS tokens, max(created_at) AS lastAt
        FROM injections WHERE session_id = (SELECT session_id FROM injections ORDER BY id DESC LIMIT 1) GROUP BY session_id`),
    });
  }

  log(sessionId: string, event: string, items: readonly { readonly memoryId: string; readonly tokens: number }[], now: number = Date.now()): void {
    if (!items.length) return;
    this.statements.insert.run({ sessionId, event, items: JSON.stringify(items.map((i) => ({ memoryId: i.memoryId, tokens: i.tokens }))), createdAt: now });
  }

  /**
   * Logs what a hook gave (if anything) after what earlier hooks could not log, in one
   * transaction with `alongside` for each (usage counts). When another writer holds the database
   * for longer than `waitMs`, nothing is written: `given` joins the backlog for the next write.
   */
  record(given: GivenContext | null, alongside: (entry: GivenContext) => void, waitMs: number): 'written' | 'deferred' | 'nothing' {
    const earlier = this.backlog.claim();
    const entries = given ? [...earlier.entries, given] : earlier.entries;
    if (!entries.length) {
      earlier.done();
      return 'nothing';
    }
    const previousWait = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.round(waitMs))}`);
    try {
      this.db.transaction(() => {
        for (const entry of entries) {
          if (entry.forgetEarlier) this.forgetSince(entry.sessionId, 0);
          this.log(entry.sessionId, entry.event, entry.items, entry.at);
          alongside(entry);
        }
      })();
    } catch (error) {
      earlier.putBack();
      if (!isBusy(error)) throw error;
      if (given) this.backlog.append(given);
      return 'deferred';
    } finally {
      this.db.pragma(`busy_timeout = ${previousWait}`);
    }
    earlier.done();
    return 'written';
  }

  /** Ids of every memory the session was already given, logged or still in the backlog. */
  givenTo(sessionId: string): Set<string> {
    let given = new Set((this.statements.given.all(sessionId) as { id: string }[]).map((r) => r.id));
    for (const entry of this.backlog.peek()) {
      if (entry.sessionId !== sessionId) continue;
      if (entry.forgetEarlier) given = new Set();
      for (const item of entry.items) given.add(item.memoryId);
    }
    return given;
  }

  forSession(sessionId: string): Injection[] {
    return this.statements.forSession.all(sessionId) as Injection[];
  }

  /** The session given something last: how many memories and tokens so far. */
  latestSession(): { readonly sessionId: string; readonly memories: number; readonly tokens: number; readonly lastAt: number } | null {
    return (this.statements.latest.get() as { sessionId: string; memories: number; tokens: number; lastAt: number } | undefined) ?? null;
  }

  /**
   * Forgets what a session was given from `since` on: after a compaction the agent no longer has
   * it in context, so it may be given again.
   */
  forgetSince(sessionId: string, since: number): number {
    return this.statements.forget.run(sessionId, since).changes;
  }
}
