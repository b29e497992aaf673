import type { HistoryProgress, HistoryReport, HistoryScope } from './importHistory';

/** What the memory server gives the history import's thread. */
export interface HistoryWorkerData {
  readonly projectFolder: string;
  readonly scope: HistoryScope;
  /** One Int32: set to 1 to stop after the commit being read (Atomics, read between commits). */
  readonly cancel: SharedArrayBuffer;
}

/** What the thread tells the memory server, in order: start, progress…, then done or failed. */
export type HistoryWorkerMessage =
  | { readonly type: 'start'; readonly commits: number }
  | { readonly type: 'progress'; readonly progress: HistoryProgress }
  | { readonly type: 'problem'; readonly message: string }
  | { readonly type: 'done'; readonly report: HistoryReport }
  | { readonly type: 'failed'; readonly message: string };
