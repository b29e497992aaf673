import type { SqliteDatabase } from './database';
import { isDamage } from './salvageReader';

/**
 * What SQLite's integrity check finds wrong with a database, at most `limit` problems; none when
 * it is sound. It reads every page (~1 s at 100,000 memories), so only `engram doctor` asks.
 */
export function integrityProblems(db: SqliteDatabase, limit = 10): string[] {
  // Past its first problems the check may itself stop on a damaged page (in FTS5's part of it):
  // then the first problem alone, which names the damage better than "disk image is malformed".
  for (const max of new Set([limit, 1])) {
    try {
      const rows = db.pragma(`integrity_check(${max})`) as { integrity_check: string }[];
      // Problems come one a row, the first under a "*** in database main ***" heading, some several to a row.
      return rows.flatMap((row) => row.integrity_check.split('\n')).filter((line) => line && line !== 'ok' && !line.startsWith('***'));
    } catch (error) {
      if (!isDamage(error)) throw error;
      if (max === 1) return [(error as Error).message];
    }
  }
  return [];
}
