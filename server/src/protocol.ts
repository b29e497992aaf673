/**
 * Every custom message between the extension (client/), the memory server (server/) and the
 * webviews (webview/), declared once. Method names are prefixed `engram/`.
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { Memory, MemoryKind, MemoryStatus, PinLevel } from './memory/types';

export type Health = 'ok' | 'warning' | 'error';

export interface ServerStatusParams {
  readonly health: Health;
  /** One sentence for the status bar tooltip; says what to do when health is not ok. */
  readonly message: string;
  readonly memoryCount: number;
}

/** Server → client, whenever health or the memory count changes: drives the status bar item. */
export namespace ServerStatusNotification {
  export const method = 'engram/status';
  export const type = new NotificationType<ServerStatusParams>(method);
}

export interface ProjectStats {
  readonly root: string;
  readonly databaseFile: string;
  readonly schemaVersion: number;
  readonly total: number;
  readonly byStatus: Readonly<Record<MemoryStatus, number>>;
  readonly byKind: Readonly<Record<MemoryKind, number>>;
  readonly pinned: { readonly soft: number; readonly hard: number };
  readonly sessions: number;
}

export interface StatsResult {
  readonly projects: readonly ProjectStats[];
  readonly runtime: { readonly node: string; readonly abi: string; readonly pid: number };
}

/** Client → server: counts per open project, for "Engram: Show Memory Stats". */
export namespace StatsRequest {
  export const method = 'engram/stats';
  export const type = new RequestType<Record<string, never>, StatsResult, void>(method);
}

export interface MemorySummary {
  readonly id: string;
  readonly kind: MemoryKind;
  readonly title: string;
  readonly body: string;
  readonly why: string | null;
  readonly pin: PinLevel;
  readonly files: readonly string[];
  readonly updatedAt: number;
}

export interface GetMemoriesParams {
  /** The document the ids came from (a CodeLens or hover), which decides the project. */
  readonly uri: string;
  readonly ids: readonly string[];
}

/** Client → server: the memories behind a CodeLens, to list them in a quick pick. */
export namespace GetMemoriesRequest {
  export const method = 'engram/memories';
  export const type = new RequestType<GetMemoriesParams, readonly MemorySummary[], void>(method);
}

export function summarize(memory: Memory): MemorySummary {
  return {
    id: memory.id,
    kind: memory.kind,
    title: memory.title,
    body: memory.body,
    why: memory.why,
    pin: memory.pin,
    files: memory.files,
    updatedAt: memory.updatedAt,
  };
}

/**
 * Server → client: reading Claude Code sessions that ran before the server started (a backfill),
 * when there is enough of it to take a while. Shown as a cancellable progress notification.
 */
export type BackfillProgressParams =
  | { readonly state: 'begin'; readonly id: string; readonly files: number; readonly bytes: number }
  | { readonly state: 'report'; readonly id: string; readonly doneFiles: number; readonly doneBytes: number; readonly files: number; readonly bytes: number }
  | { readonly state: 'end'; readonly id: string; readonly cancelled: boolean; readonly memories: number };

export namespace BackfillProgressNotification {
  export const method = 'engram/backfillProgress';
  export const type = new NotificationType<BackfillProgressParams>(method);
}

/** Client → server: stop the backfill after the file being read; what was read stays, the rest waits. */
export namespace CancelBackfillNotification {
  export const method = 'engram/cancelBackfill';
  export const type = new NotificationType<{ readonly id: string }>(method);
}

/** Client → server: read the sessions a cancelled backfill left, now (they are also read at the next start). */
export namespace ResumeBackfillNotification {
  export const method = 'engram/resumeBackfill';
  export const type = new NotificationType<Record<string, never>>(method);
}

/** Extension → stats webview. */
export type StatsViewMessage = { readonly type: 'stats'; readonly stats: StatsResult } | { readonly type: 'error'; readonly message: string };

/** Stats webview → extension. */
export type StatsViewRequest = { readonly type: 'ready' } | { readonly type: 'refresh' };

/** Command ids that server-made CodeLenses and hover links refer to. */
export const Commands = {
  showMemories: 'engram.showMemories',
  showStats: 'engram.showStats',
  restartServer: 'engram.restartServer',
} as const;
