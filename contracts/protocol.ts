/**
 * Every custom message between the extension (client/), the memory server (server/) and the
 * webviews (webview/), declared once. Method names are prefixed `engram/`.
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { Memory, MemoryKind, MemoryStatus, PinLevel } from '../server/src/memory/types';

export type Health = 'ok' | 'warning' | 'error';

export interface ServerStatusParams {
  readonly health: Health;
  /** One sentence for the status bar tooltip; says what to do when health is not ok. */
  readonly message: string;
  readonly memoryCount: number;
  /** The latest Claude Code session Engram gave memories to, when it was active in the last hour. */
  readonly agentSession: AgentSessionActivity | null;
  /** The team hub, when one is configured: "offline" while it cannot be reached (changes wait in the outbox). */
  readonly team?: 'online' | 'offline';
}

export interface AgentSessionActivity {
  readonly sessionId: string;
  readonly projectRoot: string;
  readonly memoriesGiven: number;
  readonly tokensGiven: number;
  readonly lastAt: number;
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
  readonly source: Memory['source'];
  readonly status: MemoryStatus;
  readonly files: readonly string[];
  readonly symbols: readonly string[];
  /** Pinned code, 0-based lines, when the memory has an anchor. */
  readonly anchor: { readonly path: string; readonly startLine: number; readonly endLine: number; readonly stale: boolean } | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface GetMemoriesParams {
  /** The document the ids came from (a CodeLens or hover), which decides the project. */
  readonly uri: string;
  readonly ids: readonly string[];
}

/** Client → server: memories of a document's project by id, as summaries (the panel uses `engram/memorySelection`). */
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
    source: memory.source,
    status: memory.status,
    files: memory.files,
    symbols: memory.symbols,
    anchor: memory.anchor ? { path: memory.anchor.path, startLine: memory.anchor.range.startLine, endLine: memory.anchor.range.endLine, stale: memory.anchor.stale } : null,
    createdAt: memory.createdAt,
    updatedAt: memory.updatedAt,
  };
}

export interface RecallParams {
  /** The document in focus (decides the project); without it, the first open project. */
  readonly uri?: string;
  readonly position?: { readonly line: number; readonly character: number };
  readonly query?: string;
  /** Other documents open in the editor. */
  readonly openUris?: readonly string[];
  readonly kinds?: readonly MemoryKind[];
  readonly budget?: number;
  readonly limit?: number;
  readonly sessionId?: string;
  readonly includeArchived?: boolean;
}

export interface RecalledMemory {
  readonly memory: MemorySummary;
  readonly score: number;
  readonly explanation: readonly { readonly reason: string; readonly points: number }[];
}

export interface RecallResult {
  readonly symbol: string | null;
  readonly results: readonly RecalledMemory[];
  readonly context: { readonly text: string; readonly tokens: number; readonly ids: readonly string[] } | null;
}

/** Client → server: recall for a place in the code and/or a query (docs/recall.md). */
export namespace RecallRequest {
  export const method = 'engram/recall';
  export const type = new RequestType<RecallParams, RecallResult, void>(method);
}

export const PIN_SCOPES = ['code', 'symbol', 'file', 'glob', 'project'] as const;
export type PinScope = (typeof PIN_SCOPES)[number];

export interface PinSuggestionParams {
  readonly uri: string;
  readonly range: { readonly start: { readonly line: number; readonly character: number }; readonly end: { readonly line: number; readonly character: number } };
}

export interface PinSuggestion {
  /** Prefill for the rule: a comment in or just above the selection, else the selected text. */
  readonly rule: string;
  /** The declaration the selection is in, for the "this symbol" scope. */
  readonly symbol: string | null;
  /** Project-relative path of the document. */
  readonly path: string;
}

/** Client → server: what to prefill when pinning a selection. */
export namespace PinSuggestionRequest {
  export const method = 'engram/pinSuggestion';
  export const type = new RequestType<PinSuggestionParams, PinSuggestion | null, void>(method);
}

export interface PinConstraintParams extends PinSuggestionParams {
  readonly rule: string;
  readonly scope: PinScope;
  /** For scope 'glob': project-relative glob. */
  readonly glob?: string;
  readonly strength: 'hard' | 'soft';
  readonly why?: string;
  /** "For the team": written to the project's team file, `.engram/memories.jsonl` (docs/team.md). Default: for me. */
  readonly shared?: boolean;
}

/** Client → server: "Engram: Pin Selection as Constraint". */
export namespace PinConstraintRequest {
  export const method = 'engram/pinConstraint';
  export const type = new RequestType<PinConstraintParams, MemorySummary, void>(method);
}

export interface SetPinParams {
  readonly uri: string;
  readonly id: string;
  readonly pin: PinLevel;
}

/** Client → server: pin or unpin a memory (hover and panel actions). */
export namespace SetPinRequest {
  export const method = 'engram/setPin';
  export const type = new RequestType<SetPinParams, MemorySummary | null, void>(method);
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

export interface HistoryOfferParams {
  readonly projectRoot: string;
  /** Non-merge commits HEAD reaches. */
  readonly commits: number;
}

/**
 * Server → client, once per project (the answer is kept): its git history is not imported yet;
 * import it as memories? The client asks the user; anything but 'import' (a dismissal too) declines.
 */
export namespace HistoryOfferRequest {
  export const method = 'engram/offerHistory';
  export const type = new RequestType<HistoryOfferParams, { readonly answer: 'import' | 'decline' } | null, void>(method);
}

export interface ImportHistoryParams {
  /** A document or folder of the project; default: the first open project. */
  readonly uri?: string;
}

/** Client → server: "Engram: Import Git History": import what is not imported yet, now, with progress. */
export namespace ImportHistoryRequest {
  export const method = 'engram/importHistory';
  export const type = new RequestType<ImportHistoryParams, { readonly started: boolean; readonly message: string }, void>(method);
}

/**
 * Server → client: a history import (docs/history.md) that reads enough commits to take a
 * while. Shown as a cancellable progress notification, like the backfill of transcripts.
 */
export type HistoryProgressParams =
  | { readonly state: 'begin'; readonly id: string; readonly projectRoot: string; readonly commits: number }
  | { readonly state: 'report'; readonly id: string; readonly done: number; readonly commits: number; readonly memories: number }
  | { readonly state: 'end'; readonly id: string; readonly cancelled: boolean; readonly done: number; readonly memories: number; readonly error: string | null };

export namespace HistoryProgressNotification {
  export const method = 'engram/historyProgress';
  export const type = new NotificationType<HistoryProgressParams>(method);
}

/** Client → server: stop the history import after the commit being read; what was read stays, the rest is read at the next start. */
export namespace CancelHistoryImportNotification {
  export const method = 'engram/cancelHistoryImport';
  export const type = new NotificationType<{ readonly id: string }>(method);
}

export interface EditorStateParams {
  /** The active text editor's document, or null when none is active. */
  readonly uri: string | null;
  readonly position: { readonly line: number; readonly character: number } | null;
  /** The selected text (capped by the client). */
  readonly selection: string | null;
}

/** Client → server: where the user is, kept for hooks (debounced by the client). */
export namespace EditorStateNotification {
  export const method = 'engram/editorState';
  export const type = new NotificationType<EditorStateParams>(method);
}

export interface ClaudeConnectionParams {
  /** A document or folder of the project; default: the first workspace folder. */
  readonly uri?: string;
}

export interface ClaudeConnection {
  readonly projectRoot: string;
  readonly settingsFile: string;
  readonly hooks: readonly string[];
  readonly mcp: 'local' | 'project' | null;
  readonly connected: boolean;
  readonly changed: readonly string[];
  readonly backups: readonly string[];
}

/** Client → server: is Claude Code connected to Engram for this project? */
export namespace ClaudeConnectionRequest {
  export const method = 'engram/claudeConnection';
  export const type = new RequestType<ClaudeConnectionParams, ClaudeConnection, void>(method);
}

/** Client → server: "Engram: Connect Claude Code". */
export namespace ConnectClaudeRequest {
  export const method = 'engram/connectClaude';
  export const type = new RequestType<ClaudeConnectionParams & { readonly share: boolean }, ClaudeConnection, void>(method);
}

/** Client → server: "Engram: Disconnect Claude Code". */
export namespace DisconnectClaudeRequest {
  export const method = 'engram/disconnectClaude';
  export const type = new RequestType<ClaudeConnectionParams, ClaudeConnection, void>(method);
}

export interface InjectionEntry {
  readonly event: string;
  readonly memory: MemorySummary | null;
  readonly memoryId: string;
  readonly tokens: number;
  readonly createdAt: number;
}

/** Client → server: what Engram gave one agent session (the injection log). */
export namespace InjectionsRequest {
  export const method = 'engram/injections';
  export const type = new RequestType<{ readonly sessionId: string; readonly projectRoot: string }, readonly InjectionEntry[], void>(method);
}

/** Extension → stats webview. */
export type StatsViewMessage = { readonly type: 'stats'; readonly stats: StatsResult } | { readonly type: 'error'; readonly message: string };

/** Stats webview → extension. */
export type StatsViewRequest = { readonly type: 'ready' } | { readonly type: 'refresh' };

/**
 * What a CodeLens counts: the memories of its file, or of one of the file's declarations. The
 * lens carries this, not the ids it counts (the top lens of a busy file counts thousands of
 * memories and constraints, ~170 KB of ids in every answer); the panel asks the server for them
 * when the lens is clicked (engram/memorySelection).
 */
export type CountedMemories = { readonly of: 'file' } | { readonly of: 'declaration'; readonly name: string };

/** Command ids that server-made CodeLenses and hover links refer to. */
export const Commands = {
  /**
   * `(uri, ids | counted, from?)`: the memory panel shows exactly these memories of the document
   * (a hover link's, a pinned constraint's lens) or those a CodeLens counts (CountedMemories);
   * `from` says where they came from, as a phrase ("the CodeLens on findCustomer", "the hover on
   * line 7").
   */
  showMemories: 'engram.showMemories',
  pinSelection: 'engram.pinSelection',
  connectClaude: 'engram.connectClaude',
  disconnectClaude: 'engram.disconnectClaude',
  showInjections: 'engram.showInjections',
  unpin: 'engram.unpin',
  /** `(uri, id)`: a person accepts a rule candidate, which pins it (engram/setPin): agents are given it from then on. */
  acceptRule: 'engram.acceptRule',
  importHistory: 'engram.importHistory',
  showStats: 'engram.showStats',
  restartServer: 'engram.restartServer',
} as const;
