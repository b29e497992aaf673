import type { PackedImportBatch } from './packedBatch';

/** What the reader thread is given. */
export interface ImportWorkerData {
  /** The export, opened by the main thread (which reports a file it cannot open). */
  readonly fd: number;
  /** Memories a batch holds. */
  readonly batchSize: number;
  /** The project's root: a memory's files and pinned lines must be inside it, links followed. */
  readonly projectRoot: string;
  /** The user's redaction patterns (a RegExp does not cross threads). */
  readonly patterns: readonly { readonly source: string; readonly flags: string }[];
  /** Int32Array [batches the reader may still send, 1 when the main thread stopped reading]. */
  readonly credits: SharedArrayBuffer;
}

export type ImportWorkerMessage = { readonly batch: PackedImportBatch } | { readonly done: true };

const CREDIT = 0;
const STOPPED = 1;

export function newCredits(initial: number): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(8);
  new Int32Array(buffer)[CREDIT] = initial;
  return buffer;
}

/**
 * The reader thread waits until it may send one more batch (so it never holds more than a few
 * in memory ahead of the writes); false when the main thread no longer wants any.
 */
export function waitForCredit(credits: Int32Array): boolean {
  for (;;) {
    if (Atomics.load(credits, STOPPED)) return false;
    const credit = Atomics.load(credits, CREDIT);
    if (credit > 0) {
      if (Atomics.compareExchange(credits, CREDIT, credit, credit - 1) === credit) return true;
      continue;
    }
    Atomics.wait(credits, CREDIT, credit);
  }
}

/** The main thread took a batch: the reader may send another. */
export function grantCredit(credits: Int32Array): void {
  Atomics.add(credits, CREDIT, 1);
  Atomics.notify(credits, CREDIT);
}

/** The main thread stops reading (done, or failed): a waiting reader thread ends. */
export function stopReader(credits: Int32Array): void {
  Atomics.store(credits, STOPPED, 1);
  Atomics.add(credits, CREDIT, 1);
  Atomics.notify(credits, CREDIT);
}
