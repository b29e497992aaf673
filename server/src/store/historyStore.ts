import type { SqliteDatabase } from './database';
import { lazyStatements } from './lazyStatements';

/** The user's answer to the one-time offer to import the project's git history. */
export type HistoryOfferAnswer = 'import' | 'decline';

/** A commit an import has handled, and how many memories it made (0: nothing to capture). */
export interface HandledCommit {
  readonly sha: string;
  readonly memories: number;
}

/**
 * Tips kept: `git log HEAD --not <tips>` lists what is new since any of them. An old tip dropped
 * costs a longer listing once (its commits are then found handled one by one), never a duplicate.
 */
const TIPS_KEPT = 16;

/**
 * The only SQL of the history import's cursor (schema v13): which commits are handled, which
 * tips' histories are, and the answer to the offer. Memories themselves go through MemoryStore.
 */
export class HistoryStore {
  private readonly statements;

  constructor(private readonly db: SqliteDatabase) {
    this.statements = lazyStatements({
      // A commit counts as handled when it is recorded, or when a memory of it exists without the
      // record (imported from another project's export): its source refs are unique.
      handled: () => db.prepare(`SELECT value FROM json_each(@shas) WHERE value IN (SELECT sha FROM history_commits)
        OR EXISTS (SELECT 1 FROM memories WHERE source_ref >= 'git:' || value AND source_ref < 'git:' || value || ';')`).pluck(),
      markHandled: () => db.prepare('INSERT OR IGNORE INTO history_commits (sha, memories, imported_at) SELECT value ->> 0, value ->> 1, @now FROM json_each(@commits)'),
      handledCount: () => db.prepare('SELECT count(*) FROM history_commits').pluck(),
      tips: () => db.prepare('SELECT sha FROM history_tips ORDER BY seen_at DESC, sha LIMIT @limit').pluck(),
      addTip: () => db.prepare('INSERT INTO history_tips (sha, seen_at) VALUES (@sha, @now) ON CONFLICT (sha) DO UPDATE SET seen_at = excluded.seen_at'),
      pruneTips: () => db.prepare('DELETE FROM history_tips WHERE sha NOT IN (SELECT sha FROM history_tips ORDER BY seen_at DESC, sha LIMIT @limit)'),
      offerAnswer: () => db.prepare('SELECT answer FROM history_offer WHERE id = 1').pluck(),
      answerOffer: () => db.prepare(`INSERT INTO history_offer (id, answer, answered_at) VALUES (1, @answer, @now)
        ON CONFLICT (id) DO UPDATE SET answer = excluded.answer, answered_at = excluded.answered_at`),
    });
  }

  /** Which of `shas` were handled already, by this project's imports or as memories from elsewhere. */
  handled(shas: readonly string[]): Set<string> {
    if (!shas.length) return new Set();
    return new Set(this.statements.handled.all({ shas: JSON.stringify(shas) }) as string[]);
  }

  /** Records commits as handled; in the transaction that stores their memories. */
  markHandled(commits: readonly HandledCommit[], now: number = Date.now()): void {
    if (commits.length) this.statements.markHandled.run({ commits: JSON.stringify(commits.map((c) => [c.sha, c.memories])), now });
  }

  handledCount(): number {
    return this.statements.handledCount.get() as number;
  }

  /** Tips whose whole history has been handled (imported, or left out on purpose by `--since`/`--max`), newest first. */
  tips(): string[] {
    return this.statements.tips.all({ limit: TIPS_KEPT }) as string[];
  }

  addTip(sha: string, now: number = Date.now()): void {
    this.db.transaction(() => {
      this.statements.addTip.run({ sha, now });
      this.statements.pruneTips.run({ limit: TIPS_KEPT });
    })();
  }

  offerAnswer(): HistoryOfferAnswer | null {
    return (this.statements.offerAnswer.get() as HistoryOfferAnswer | undefined) ?? null;
  }

  answerOffer(answer: HistoryOfferAnswer, now: number = Date.now()): void {
    this.statements.answerOffer.run({ answer, now });
  }
}
