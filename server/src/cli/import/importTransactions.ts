import type { ImportTransaction } from '../../store/bulkImport';
import type { ImportOutcome } from '../../store/memoryStore';
import type { ImportBatch, RejectedLine } from './importBatches';

/** When `engram import` commits: whichever comes first. */
export interface TransactionLimits {
  /**
   * Memories a transaction holds: one commit per memory made the import of 100,000 take minutes,
   * and each commit rewrites the index pages its memories touched.
   */
  readonly memories: number;
  /**
   * How long a transaction may hold the write lock before its commit starts, waiting for the
   * reader included, so that hooks and MCP servers writing at the same time wait at most that long.
   */
  readonly lockMs: number;
}

export interface ImportProgress {
  /** Lines skipped, reported as they are read. */
  rejected(lines: readonly RejectedLine[]): void;
  /** Outcomes of memories stored, reported once their transaction has committed. */
  committed(outcomes: readonly ImportOutcome[]): void;
}

/** A failure to read the export (the reader thread's), as opposed to one to write it. */
export class ImportReadError extends Error {}

const WAITED = Symbol('waited');

/** `promise`'s value, or WAITED if it takes longer than `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof WAITED> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<typeof WAITED>((resolve) => (timer = setTimeout(() => resolve(WAITED), Math.max(0, ms))));
  try {
    return await Promise.race([promise, waited]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Writes the reader's batches as they arrive, several to a transaction (see TransactionLimits):
 * each batch is garbage once written (importReader.ts), and a transaction's full-text terms still
 * become one index segment (bulkImport.ts). A write that fails undoes its transaction and is
 * thrown; a read that fails (ImportReadError) is thrown after what was read before it is committed.
 *
 * The transaction stays open while the next batch is awaited: nothing else may use the connection
 * meanwhile. `engram import` runs in its own process (the memory server serves no import).
 */
export async function writeInTransactions(
  batches: AsyncIterator<ImportBatch>,
  begin: () => ImportTransaction,
  limits: TransactionLimits,
  progress: ImportProgress,
): Promise<void> {
  let open: { readonly transaction: ImportTransaction; readonly outcomes: ImportOutcome[]; readonly since: number } | undefined;
  const commit = () => {
    if (!open) return;
    const { transaction, outcomes } = open;
    open = undefined;
    try {
      transaction.commit();
    } catch (error) {
      transaction.rollback();
      throw error;
    }
    progress.committed(outcomes);
  };
  const read = async (): Promise<IteratorResult<ImportBatch>> => {
    const next = batches.next().catch((error: unknown) => Promise.reject(new ImportReadError((error as Error).message, { cause: error })));
    // Handled here if a commit below fails first, and awaited again after it.
    next.catch(() => {});
    if (!open) return next;
    if ((await within(next, open.since + limits.lockMs - performance.now())) === WAITED) {
      // The reader is slow (a huge line, a busy machine): the write lock is not held for it.
      commit();
    }
    return next;
  };
  try {
    for (let next = await read(); !next.done; next = await read()) {
      const { memories, rejected } = next.value;
      if (rejected.length) progress.rejected(rejected);
      if (!memories.length) continue;
      open ??= { transaction: begin(), outcomes: [], since: performance.now() };
      open.outcomes.push(...open.transaction.add(memories));
      if (open.outcomes.length >= limits.memories || performance.now() - open.since >= limits.lockMs) commit();
    }
    commit();
  } catch (error) {
    // What was read before a failed read is stored, as if the export ended there.
    if (error instanceof ImportReadError) commit();
    throw error;
  } finally {
    open?.transaction.rollback();
  }
}
