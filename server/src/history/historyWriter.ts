import type { Memory } from '../memory/types';
import type { Project } from '../project';
import { FtsTags } from '../store/bulkImportTags';
import { prepareForImport, type PreparedMemory } from '../store/preparedImport';

/** A commit read and made into memories (perhaps none), waiting to be stored. */
export interface ReadCommit {
  readonly sha: string;
  readonly memories: readonly Memory[];
}

/**
 * Stores commits' memories through the bulk import's write path, many commits to a transaction,
 * each commit recorded as handled in the same transaction as its memories: a run stopped at any
 * point (cancelled, killed) leaves whole commits, and the next run goes on after them.
 */
export class HistoryWriter {
  private readonly tags = new FtsTags();

  constructor(private readonly project: Pick<Project, 'store' | 'history' | 'redactor'>) {}

  /** Stores what is not stored yet (another process may have imported some meanwhile); returns how many memories were added. */
  write(commits: readonly ReadCommit[]): number {
    if (!commits.length) return 0;
    // Redacted before the write lock is taken, so that hooks wait only for the writes.
    const prepared = new Map<string, PreparedMemory[]>(commits.map((c) => [c.sha, c.memories.map((m) => prepareForImport(m, this.project.redactor, this.tags))]));
    const transaction = this.project.store.beginImport();
    try {
      const handled = this.project.history.handled(commits.map((c) => c.sha));
      const fresh = commits.filter((c) => !handled.has(c.sha));
      const added = transaction.add(fresh.flatMap((c) => prepared.get(c.sha)!)).filter((outcome) => outcome === 'added').length;
      this.project.history.markHandled(fresh.map((c) => ({ sha: c.sha, memories: c.memories.length })));
      transaction.commit();
      return added;
    } catch (error) {
      transaction.rollback();
      throw error;
    }
  }
}
