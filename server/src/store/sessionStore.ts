import type { Statement } from 'better-sqlite3';
import { Redactor } from '../secrets/redact';
import type { SqliteDatabase } from './database';

/** One agent session (a Claude Code conversation) as far as its transcript has been read. */
export interface AgentSession {
  readonly id: string;
  readonly agent: 'claude-code';
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly branch: string | null;
  readonly title: string | null;
  readonly transcriptPath: string | null;
}

/**
 * SQL for agent sessions. Seeing more of a transcript widens the time span; the first title
 * stays. The title is the session's first prompt, shown in the panel and timeline: it is
 * redacted here, on its way in.
 */
export class SessionStore {
  private readonly upsertStatement: Statement;
  private readonly getStatement: Statement;
  private readonly compactedStatement: Statement;
  private readonly compactionsStatement: Statement;

  constructor(db: SqliteDatabase, private readonly redactor: Redactor = new Redactor()) {
    this.upsertStatement = db.prepare(`INSERT INTO sessions (id, agent, started_at, ended_at, branch, title, transcript_path)
      VALUES (@id, @agent, @startedAt, @endedAt, @branch, @title, @transcriptPath)
      ON CONFLICT (id) DO UPDATE SET
        started_at = min(started_at, excluded.started_at),
        ended_at = max(coalesce(ended_at, 0), coalesce(excluded.ended_at, 0)),
        branch = coalesce(excluded.branch, branch),
        title = coalesce(title, excluded.title),
        transcript_path = coalesce(transcript_path, excluded.transcript_path)`);
    this.getStatement = db.prepare(`SELECT id, agent, started_at AS startedAt, ended_at AS endedAt, branch, title,
      transcript_path AS transcriptPath FROM sessions WHERE id = ?`);
    this.compactedStatement = db.prepare('INSERT INTO compactions (session_id, trigger, at) VALUES (?, ?, ?)');
    this.compactionsStatement = db.prepare('SELECT trigger, at FROM compactions WHERE session_id = ? ORDER BY at');
  }

  /** The session's context was compacted (PreCompact). */
  compacted(sessionId: string, trigger: 'manual' | 'auto', at: number = Date.now()): void {
    this.compactedStatement.run(sessionId, trigger, at);
  }

  compactions(sessionId: string): { readonly trigger: 'manual' | 'auto'; readonly at: number }[] {
    return this.compactionsStatement.all(sessionId) as { trigger: 'manual' | 'auto'; at: number }[];
  }

  upsert(session: AgentSession): void {
    this.upsertStatement.run({ ...session, title: session.title === null ? null : this.redactor.text(session.title) });
  }

  get(id: string): AgentSession | null {
    return (this.getStatement.get(id) as AgentSession | undefined) ?? null;
  }
}
