import type { Statement } from 'better-sqlite3';
import { MEMORY_STATUSES, type MemoryKind, type MemorySource, type MemoryStatus } from '../memory/types';
import type { SqliteDatabase } from './database';
import { FileSessions } from './fileSessions';

/** Which memories a timeline page holds; absent fields do not narrow it. */
export interface TimelineQuery {
  readonly statuses: readonly MemoryStatus[];
  readonly kinds?: readonly MemoryKind[];
  readonly sources?: readonly MemorySource[];
  /** A project-relative file, or a folder: memories tagged with or pinned in it or anything under it. */
  readonly path?: string;
  /** A symbol and its members. */
  readonly symbol?: string;
  readonly sessionId?: string;
  readonly pinnedOnly?: boolean;
  /** Only memories shared through the team file (team/teamMark.ts). */
  readonly teamOnly?: boolean;
  /** Keyset cursor: only rows strictly below (updatedAt, rowid), in the timeline's order. */
  readonly before?: { readonly updatedAt: number; readonly rowid: number } | null;
  readonly limit: number;
}

export interface TimelineRow {
  readonly rowid: number;
  readonly updatedAt: number;
}

export interface CompactionPoint {
  readonly sessionId: string;
  readonly trigger: 'manual' | 'auto';
  readonly at: number;
  /** Distinct memories given at the session start that followed it (before any later compaction). */
  readonly carriedOver: number;
}

export interface SessionRow {
  readonly id: string;
  readonly agent: string | null;
  readonly title: string | null;
  readonly startedAt: number | null;
}

export interface AgentSessionRow extends SessionRow {
  readonly endedAt: number | null;
  readonly memories: number;
  readonly given: number;
  readonly tokens: number;
  readonly lastAt: number;
}

export interface SessionTouchRow extends SessionRow {
  readonly memories: number;
  readonly lastAt: number;
}

/** Above any real (updatedAt, rowid): the cursor of the first page. */
const TOP = Number.MAX_SAFE_INTEGER;

interface Statements {
  readonly page: Statement;
  readonly pageOfHits: Statement;
  readonly sessionHits: Statement;
  readonly symbolHits: Statement;
  readonly memberHits: Statement;
  readonly fileHits: Statement;
  readonly underFolderHits: Statement;
  readonly anchorHits: Statement;
  readonly anchorUnderFolderHits: Statement;
  readonly compactions: Statement;
  readonly sessionsById: Statement;
  readonly agentSessions: Statement;
  readonly compactionsOf: Statement;
  readonly stamp: Statement;
}

function under(column: string, value: string, prefix: string): string {
  return `(${column} = ${value} OR (${column} > ${prefix} AND ${column} < ${prefix} || char(1114111)))`;
}

/** A timeline page's filters, one definition for both ways a page is read. */
const PAGE_FILTER = `(m.updated_at, m.rowid) < (@beforeAt, @beforeRowid)
        AND +m.status IN (SELECT value FROM json_each(@statuses))
        AND (@kinds IS NULL OR +m.kind IN (SELECT value FROM json_each(@kinds)))
        AND (@sources IS NULL OR m.source IN (SELECT value FROM json_each(@sources)))
        AND (@sessionId IS NULL OR m.session_id = @sessionId)
        AND (@pinnedOnly = 0 OR m.pin != 'none')
        AND (@teamOnly = 0 OR (json_extract(m.meta, '$.team.id') IS NOT NULL AND json_extract(m.meta, '$.team.gone') IS NULL))
        AND (@path IS NULL
          OR EXISTS (SELECT 1 FROM memory_files f WHERE f.memory_rowid = m.rowid AND ${under('f.path', '@path', '@pathPrefix')})
          OR EXISTS (SELECT 1 FROM anchors a WHERE a.memory_rowid = m.rowid AND ${under('a.path', '@path', '@pathPrefix')}))
        AND (@symbol IS NULL OR EXISTS (SELECT 1 FROM memory_symbols s WHERE s.memory_rowid = m.rowid AND ${under('s.symbol', '@symbol', '@symbolPrefix')}))`;

/**
 * A page is read from the memories a session, symbol or path filter names when one names at most
 * this many (each read by rowid, then sorted: ~5 µs a memory at 1,000,000); past it, matches are
 * common enough for the walk down the updated_at index to meet a page's worth soon.
 */
const HITS_MAX = 5_000;

function prepare(db: SqliteDatabase): Statements {
  return {
    // Walks the updated_at index newest first from the cursor and stops at LIMIT: no sort, and no
    // list built per page (tags are probed per row through their primary keys), so a filter that
    // matches everything costs what no filter does. `+m.status`, `+m.kind` keep the planner off
    // the status and kind indexes, which would mean sorting every match.
    page: db.prepare(`SELECT m.rowid AS rowid, m.updated_at AS updatedAt FROM memories m INDEXED BY memories_updated
      WHERE ${PAGE_FILTER}
      ORDER BY m.updated_at DESC, m.rowid DESC
      LIMIT @limit`),
    // The same page from the few memories a session, symbol or path names (@hits): the walk above
    // passes every newer memory first, 4–5 s at 1,000,000 for a session with none.
    pageOfHits: db.prepare(`SELECT m.rowid AS rowid, m.updated_at AS updatedAt FROM memories m NOT INDEXED
      WHERE m.rowid IN (SELECT value FROM json_each(@hits)) AND ${PAGE_FILTER}
      ORDER BY m.updated_at DESC, m.rowid DESC
      LIMIT @limit`),
    // Each a plain index range that stops at @cap (an OR of two ranges gathers every match first).
    sessionHits: db.prepare('SELECT rowid FROM memories WHERE session_id = @sessionId LIMIT @cap').pluck(),
    symbolHits: db.prepare('SELECT memory_rowid FROM memory_symbols WHERE symbol = @symbol LIMIT @cap').pluck(),
    memberHits: db.prepare('SELECT memory_rowid FROM memory_symbols WHERE symbol > @symbolPrefix AND symbol < @symbolPrefix || char(1114111) LIMIT @cap').pluck(),
    fileHits: db.prepare('SELECT memory_rowid FROM memory_files WHERE path = @path LIMIT @cap').pluck(),
    underFolderHits: db.prepare('SELECT memory_rowid FROM memory_files WHERE path > @pathPrefix AND path < @pathPrefix || char(1114111) LIMIT @cap').pluck(),
    anchorHits: db.prepare('SELECT memory_rowid FROM anchors WHERE path = @path LIMIT @cap').pluck(),
    anchorUnderFolderHits: db.prepare('SELECT memory_rowid FROM anchors WHERE path > @pathPrefix AND path < @pathPrefix || char(1114111) LIMIT @cap').pluck(),
    compactions: db.prepare(`SELECT c.session_id AS sessionId, c.trigger AS trigger, c.at AS at,
        (SELECT count(DISTINCT i.memory_id) FROM injections i
          WHERE i.session_id = c.session_id AND i.event = 'session-start' AND i.created_at >= c.at
            AND i.created_at < coalesce((SELECT min(n.at) FROM compactions n WHERE n.session_id = c.session_id AND n.at > c.at), @top)) AS carriedOver
      FROM compactions c
      WHERE c.at >= @from AND c.at < @to AND (@sessionId IS NULL OR c.session_id = @sessionId)
      ORDER BY c.at DESC, c.id DESC`),
    sessionsById: db.prepare(`SELECT id, agent, title, started_at AS startedAt FROM sessions WHERE id IN (SELECT value FROM json_each(@ids))`),
    // Index entries only (memories_session_activity: session, status, last change): the sessions seen in
    // memories one seek each, then each one's count and last change; no memory's row is read.
    agentSessions: db.prepare(`WITH RECURSIVE seen(id) AS (
        SELECT (SELECT min(session_id) FROM memories WHERE session_id IS NOT NULL)
        UNION ALL SELECT (SELECT min(session_id) FROM memories WHERE session_id > seen.id) FROM seen WHERE seen.id IS NOT NULL
      ),
      ids(id) AS (
        SELECT id FROM sessions
        UNION SELECT session_id FROM injections
        UNION SELECT id FROM seen WHERE id IS NOT NULL
      )
      SELECT ids.id AS id, s.agent AS agent, s.title AS title, s.started_at AS startedAt, s.ended_at AS endedAt,
        (SELECT count(*) FROM memories m WHERE m.session_id = ids.id AND m.status IN ('active', 'archived')) AS memories,
        (SELECT count(DISTINCT i.memory_id) FROM injections i WHERE i.session_id = ids.id) AS given,
        (SELECT coalesce(sum(i.tokens), 0) FROM injections i WHERE i.session_id = ids.id) AS tokens,
        max(coalesce(s.ended_at, 0), coalesce(s.started_at, 0),
          coalesce((SELECT max(i.created_at) FROM injections i WHERE i.session_id = ids.id), 0),
          ${MEMORY_STATUSES.map((status) => `coalesce((SELECT max(m.updated_at) FROM memories m WHERE m.session_id = ids.id AND m.status = '${status}'), 0)`).join(',\n          ')},
          coalesce((SELECT max(c.at) FROM compactions c WHERE c.session_id = ids.id), 0)) AS lastAt
      FROM ids LEFT JOIN sessions s ON s.id = ids.id
      ORDER BY lastAt DESC
      LIMIT @limit`),
    compactionsOf: db.prepare(`SELECT c.trigger AS trigger, c.at AS at,
        (SELECT count(DISTINCT i.memory_id) FROM injections i
          WHERE i.session_id = c.session_id AND i.event = 'session-start' AND i.created_at >= c.at
            AND i.created_at < coalesce((SELECT min(n.at) FROM compactions n WHERE n.session_id = c.session_id AND n.at > c.at), @top)) AS carriedOver
      FROM compactions c WHERE c.session_id = @sessionId ORDER BY c.at`),
    // Index-only reads: the newest row and the latest update.
    stamp: db.prepare('SELECT (SELECT max(rowid) FROM memories) AS lastRowid, (SELECT max(updated_at) FROM memories) AS lastUpdate'),
  };
}

/**
 * SQL for the memory panel and the timeline: keyset pages of memories over time (the order of the
 * `memories_updated` index, so page 500 costs what page 1 does), compaction points, agent sessions
 * and what they touched, and a cheap stamp that changes when memories do.
 */
export class TimelineStore {
  private prepared: Statements | undefined;
  private fileSessions: FileSessions | undefined;

  constructor(private readonly db: SqliteDatabase) {}

  /** Prepared on first use: every hook and CLI run opens a project, and few of them need these. */
  private get statements(): Statements {
    this.prepared ??= prepare(this.db);
    return this.prepared;
  }

  /** Rowids (with their updated_at, for the next cursor) of one page, most recently updated first. */
  page(query: TimelineQuery): TimelineRow[] {
    const list = (values: readonly string[] | undefined) => (values?.length ? JSON.stringify(values) : null);
    const params = {
      beforeAt: query.before?.updatedAt ?? TOP,
      beforeRowid: query.before?.rowid ?? TOP,
      statuses: JSON.stringify(query.statuses),
      kinds: list(query.kinds),
      sources: list(query.sources),
      sessionId: query.sessionId ?? null,
      pinnedOnly: query.pinnedOnly ? 1 : 0,
      teamOnly: query.teamOnly ? 1 : 0,
      path: query.path ?? null,
      pathPrefix: query.path ? `${query.path.replace(/\/+$/, '')}/` : null,
      symbol: query.symbol ?? null,
      symbolPrefix: query.symbol ? `${query.symbol}.` : null,
      limit: query.limit,
    };
    const hits = this.fewestHits(params);
    return (hits ? this.statements.pageOfHits.all({ ...params, hits: JSON.stringify(hits) }) : this.statements.page.all(params)) as TimelineRow[];
  }

  /** The fewest memories one of the page's session, symbol and path filters names, when at most HITS_MAX. */
  private fewestHits(params: { sessionId: string | null; symbol: string | null; path: string | null }): number[] | null {
    const cap = HITS_MAX + 1;
    const s = this.statements;
    const named = (statements: readonly Statement[]): Set<number> | null => {
      const hits = new Set<number>();
      for (const statement of statements) {
        for (const rowid of statement.all({ ...params, cap }) as number[]) hits.add(rowid);
        if (hits.size > HITS_MAX) return null;
      }
      return hits;
    };
    const sets = [
      params.sessionId !== null ? named([s.sessionHits]) : null,
      params.symbol !== null ? named([s.symbolHits, s.memberHits]) : null,
      params.path !== null ? named([s.fileHits, s.underFolderHits, s.anchorHits, s.anchorUnderFolderHits]) : null,
    ].filter((hits) => hits !== null);
    if (!sets.length) return null;
    return [...sets.reduce((fewest, hits) => (hits.size < fewest.size ? hits : fewest))];
  }

  /** Compaction points with `from <= at < to`, newest first; of one session when given. */
  compactionsBetween(from: number, to: number, sessionId?: string): CompactionPoint[] {
    return this.statements.compactions.all({ from, to, sessionId: sessionId ?? null, top: TOP }) as CompactionPoint[];
  }

  /** The sessions table's rows for these ids (ids it does not know are left out). */
  sessions(ids: readonly string[]): SessionRow[] {
    if (!ids.length) return [];
    return this.statements.sessionsById.all({ ids: JSON.stringify(ids) }) as SessionRow[];
  }

  /** Every agent session seen (transcripts read, memories made, or memories given), most recently active first. */
  agentSessions(limit: number): AgentSessionRow[] {
    return this.statements.agentSessions.all({ limit }) as AgentSessionRow[];
  }

  /** A session's compactions, oldest first, with how many memories were given again after each. */
  compactionsOf(sessionId: string): Omit<CompactionPoint, 'sessionId'>[] {
    return this.statements.compactionsOf.all({ sessionId, top: TOP }) as Omit<CompactionPoint, 'sessionId'>[];
  }

  /** Agent sessions that made memories about a file, most recent first. */
  sessionsTouching(path: string, limit: number): SessionTouchRow[] {
    this.fileSessions ??= new FileSessions(this.db, (ids) => this.sessions(ids));
    return this.fileSessions.of(path, limit);
  }

  /**
   * Changes when a memory is added or updated in this database (pin and edit bump updated_at);
   * status changes keep updated_at, so their callers announce them themselves.
   */
  changeStamp(): string {
    const row = this.statements.stamp.get() as { lastRowid: number | null; lastUpdate: number | null };
    return `${row.lastRowid ?? 0}:${row.lastUpdate ?? 0}`;
  }
}
