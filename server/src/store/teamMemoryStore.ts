import type { Statement } from 'better-sqlite3';
import type { Memory } from '../memory/types';
import type { SqliteDatabase } from './database';
import { prepareMemorySelect, rowToMemory, type MemoryRow } from './memoryRows';

/**
 * The memories that know of the team file (`meta.team`, team/teamMark.ts): shared ones, ones
 * received from it, ones whose line left it. Read when the file changes and by `engram team`,
 * not per hover, through the partial index of schema v16, which holds only marked memories.
 */
export class TeamMemoryStore {
  private statements: { marked: Statement; sharedCount: Statement } | undefined;

  constructor(private readonly db: SqliteDatabase) {}

  private get prepared(): { marked: Statement; sharedCount: Statement } {
    this.statements ??= {
      // INDEXED BY: the planner, without statistics, would rather scan in rowid order.
      marked: prepareMemorySelect(this.db, `WHERE m.rowid IN (SELECT rowid FROM memories INDEXED BY memories_team_mark
        WHERE json_extract(meta, '$.team.id') IS NOT NULL) ORDER BY m.rowid`),
      sharedCount: this.db.prepare(`SELECT count(*) FROM memories INDEXED BY memories_team_mark WHERE status = 'active'
        AND json_extract(meta, '$.team.id') IS NOT NULL AND json_extract(meta, '$.team.gone') IS NULL`).pluck(),
    };
    return this.statements;
  }

  /** Every memory with a team mark, any status, oldest first. */
  marked(): Memory[] {
    return (this.prepared.marked.all() as MemoryRow[]).map(rowToMemory);
  }

  /** Active memories shared with the team now. */
  sharedCount(): number {
    return this.prepared.sharedCount.get() as number;
  }
}
