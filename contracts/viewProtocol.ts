/**
 * The messages behind the memory panel (sidebar) and the memory timeline, declared once: the
 * extension (client/) sends them to the memory server, and the webviews (webview/) get their
 * results relayed through the extension. Method names are prefixed `engram/`.
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { MemoryKind, MemorySource, MemoryStatus, PinLevel } from '../server/src/memory/types';
import type { CountedMemories, MemorySummary } from './protocol';

/** A memory as the panel and the timeline show it: the summary, with a body capped for lists. */
export interface ViewMemory extends MemorySummary {
  /** True when `body` was cut for the list; `MemoryDetailRequest` has the whole text. */
  readonly bodyTruncated: boolean;
  /** The agent session that made it (a Claude Code session id). */
  readonly sessionId: string | null;
  /** For glob-scoped constraints. */
  readonly glob: string | null;
  /** For diff memories: lines added and removed (over every coalesced save). */
  readonly change: { readonly added: number; readonly removed: number } | null;
  /** Where it applies, as a phrase: "lines 5–13 of src/db.ts", "src/db.ts › findCustomer", "the whole project". */
  readonly place: string;
  /** A rule extracted from a transcript that no agent is given until a person accepts it (memory/ruleCandidate.ts). */
  readonly candidate: boolean;
  /** Shared with the team through the project's team file (docs/team.md); absent when not. */
  readonly team?: boolean;
  /**
   * Only on the team hub, not in this clone (a timeline search of the hub found it): read-only
   * here, its id is its hub key. Absent for every memory of this clone's store. `context` is the
   * memory as an agent would be given it, for "Copy as context": there is no local memory to ask for.
   */
  readonly hub?: { readonly project: string; readonly author: string; readonly context: string };
}

/** An agent session in a list: enough for a heading ("Claude Code · Fix the pool · 10:04"). */
export interface SessionInfo {
  readonly id: string;
  readonly agent: string | null;
  readonly title: string | null;
  readonly startedAt: number | null;
}

export interface PanelParams {
  /** The active editor's document. */
  readonly uri: string;
  readonly position?: { readonly line: number; readonly character: number };
  /** Other documents open in the editor (for recall's proximity). */
  readonly openUris?: readonly string[];
}

export interface PanelConstraint {
  readonly memory: ViewMemory;
  /** Governs the cursor's line (pinned code around it, or the symbol it is in). */
  readonly atCursor: boolean;
  /** Its pinned code is gone (following unsaved edits when the document is open). */
  readonly stale: boolean;
  /** Where its pinned code is now, 0-based, when it has an anchor and is not stale. */
  readonly lines: { readonly start: number; readonly end: number } | null;
}

export interface PanelSession extends SessionInfo {
  /** Memories it made about this file (forgotten ones not counted). */
  readonly memories: number;
  readonly lastAt: number;
}

export interface MemoryPanel {
  readonly projectRoot: string;
  readonly path: string;
  /** The declaration at the cursor. */
  readonly symbol: string | null;
  /**
   * The active constraints that apply to the file: every one at the cursor, then the first others
   * (hard pins first, oldest first); `moreConstraints` counts the others not listed.
   */
  readonly constraints: readonly PanelConstraint[];
  /** Constraints that apply to the file beyond those listed (the file's top CodeLens shows them all). */
  readonly moreConstraints: number;
  /** Recall for the file and the cursor, constraints left out (they are above). */
  readonly memories: readonly { readonly memory: ViewMemory; readonly score: number; readonly explanation: readonly { readonly reason: string; readonly points: number }[] }[];
  /** Recent agent sessions that made memories about the file, newest first. */
  readonly sessions: readonly PanelSession[];
}

/** Client → server: what the memory panel shows for a place in the code; null when the document is in no open project. */
export namespace MemoryPanelRequest {
  export const method = 'engram/memoryPanel';
  export const type = new RequestType<PanelParams, MemoryPanel | null, void>(method);
}

/**
 * The document the CodeLens or hover was in (decides the project), and the memories it named, in
 * its order, or what the CodeLens counts (its newest memories then, constraints first).
 */
export type MemorySelectionParams = { readonly uri: string } & ({ readonly ids: readonly string[] } | { readonly counted: CountedMemories });

/** The memories a CodeLens or a hover link named, for the panel to show alone (`engram.showMemories`). */
export interface MemorySelection {
  readonly projectRoot: string;
  /** The document's project-relative path. */
  readonly path: string;
  /** The active constraints among them, in the order asked, with where their pinned code is now (`atCursor` is always false). */
  readonly constraints: readonly PanelConstraint[];
  /** The other active memories among them, in the order asked. */
  readonly memories: readonly ViewMemory[];
  /** Ids that name no memory, or one that is no longer active (forgotten or archived since). */
  readonly missing: number;
}

/** Client → server: the memories behind a CodeLens or hover link, as the panel shows them; null when the document is in no open project. */
export namespace MemorySelectionRequest {
  export const method = 'engram/memorySelection';
  export const type = new RequestType<MemorySelectionParams, MemorySelection | null, void>(method);
}

/** The most ids one selection may name (a file's CodeLens names up to 500 memories and its constraints). */
export const MEMORY_SELECTION_MAX = 1000;

export const TIMELINE_STATUSES: readonly MemoryStatus[] = ['active', 'archived'];

/** Which memories the timeline shows; every field narrows it. */
export interface TimelineFilter {
  readonly kinds?: readonly MemoryKind[];
  /** A project-relative file, or a folder (everything under it). */
  readonly path?: string;
  /** A qualified symbol, and its members (`Pool` → `Pool.acquire`). */
  readonly symbol?: string;
  readonly sources?: readonly MemorySource[];
  readonly sessionId?: string;
  /** Only pinned memories (soft or hard). */
  readonly pinned?: boolean;
  /** Only memories shared with the team (docs/team.md). */
  readonly team?: boolean;
  /** Default: active and archived (TIMELINE_STATUSES). */
  readonly statuses?: readonly MemoryStatus[];
}

/** Keyset position: the page after it starts below this (updatedAt, rowid). */
export interface TimelineCursor {
  readonly updatedAt: number;
  readonly rowid: number;
}

export type TimelineEntry =
  | { readonly type: 'memory'; readonly memory: ViewMemory }
  /** An agent session's context was compacted; `carriedOver` memories were given again right after. */
  | { readonly type: 'compaction'; readonly sessionId: string; readonly trigger: 'manual' | 'auto'; readonly at: number; readonly carriedOver: number };

export interface TimelinePageParams {
  /** Default: the first open project. */
  readonly projectRoot?: string;
  readonly filter: TimelineFilter;
  /** null for the first (newest) page. */
  readonly cursor: TimelineCursor | null;
  readonly limit: number;
}

export interface TimelinePage {
  readonly projectRoot: string;
  /** Every open project, for a project picker. */
  readonly projects: readonly string[];
  /** Newest first; compaction points interleaved by time. */
  readonly entries: readonly TimelineEntry[];
  /** The sessions the entries name. */
  readonly sessions: readonly SessionInfo[];
  /** null when this was the last page. */
  readonly nextCursor: TimelineCursor | null;
  /** A team hub is configured for this memory server: the search box offers the hub's scopes. */
  readonly teamHub: boolean;
}

/** Client → server: one page of the timeline (keyset pagination, so any page costs the same). */
export namespace TimelinePageRequest {
  export const method = 'engram/timelinePage';
  export const type = new RequestType<TimelinePageParams, TimelinePage, void>(method);
}

/**
 * Where the timeline's search looks: this clone's store (recall), or the team hub (docs/team.md)
 * for this project or for every project the hub lets the user read.
 */
export type TimelineSearchScope = 'local' | 'team' | 'team-all';

export interface TimelineSearchParams {
  readonly projectRoot?: string;
  readonly query: string;
  readonly filter: TimelineFilter;
  readonly limit: number;
  /** Default: 'local'. A team scope without a configured hub is refused. */
  readonly scope?: TimelineSearchScope;
}

export interface TimelineSearch {
  readonly projectRoot: string;
  /**
   * Best first. From the hub: a hit this clone has (linked by its hub key) is its local memory,
   * any other carries `memory.hub`; the explanation is the hub's (full-text rank, name similarity).
   */
  readonly results: readonly { readonly memory: ViewMemory; readonly score: number; readonly explanation: readonly { readonly reason: string; readonly points: number }[] }[];
  readonly sessions: readonly SessionInfo[];
  /** As in TimelinePage: a search restored without a page first still learns it. */
  readonly teamHub: boolean;
}

/** Client → server: the timeline's search box, answered by recall or the team hub (best first), then narrowed by the filter. */
export namespace TimelineSearchRequest {
  export const method = 'engram/timelineSearch';
  export const type = new RequestType<TimelineSearchParams, TimelineSearch, void>(method);
}

export interface AgentSessionSummary extends SessionInfo {
  readonly endedAt: number | null;
  /** Memories it made (forgotten ones not counted). */
  readonly memories: number;
  /** Distinct memories Engram gave it since its last compaction (the injection log is reset there). */
  readonly given: number;
  readonly tokens: number;
  readonly lastAt: number;
  readonly compactions: readonly { readonly trigger: 'manual' | 'auto'; readonly at: number; readonly carriedOver: number }[];
}

/** Client → server: agent sessions of a project, most recently active first (for the injection log and the session filter). */
export namespace AgentSessionsRequest {
  export const method = 'engram/agentSessions';
  export const type = new RequestType<{ readonly projectRoot?: string }, { readonly projectRoot: string; readonly sessions: readonly AgentSessionSummary[] }, void>(method);
}

export interface MemoryRef {
  readonly projectRoot: string;
  readonly id: string;
}

/** Client → server: one memory with its whole body (for editing, and details in the timeline). */
export namespace MemoryDetailRequest {
  export const method = 'engram/memoryDetail';
  export const type = new RequestType<MemoryRef, ViewMemory | null, void>(method);
}

/** What the user did to a memory from a panel. forget is soft (restore undoes it). */
export type MemoryAction =
  | { readonly type: 'pin'; readonly pin: PinLevel }
  | { readonly type: 'forget' }
  | { readonly type: 'restore' }
  | { readonly type: 'archive' }
  | { readonly type: 'edit'; readonly title: string; readonly body?: string; readonly why?: string | null }
  /** "Copy as context": returns the text hooks would give an agent, and counts as acting on it. */
  | { readonly type: 'copy' }
  /** Into the project's team file, or out of it (the memory stays the user's own). */
  | { readonly type: 'share' }
  | { readonly type: 'unshare' };

export interface MemoryActionResult {
  /** The memory after the action; null when no memory has that id. */
  readonly memory: ViewMemory | null;
  /** False when it was already so (pinning a pinned memory, forgetting a forgotten one). */
  readonly changed: boolean;
  /** For 'copy'. */
  readonly text?: string;
}

/** Client → server: pin / unpin, forget / restore / archive, edit, copy a memory. */
export namespace MemoryActionRequest {
  export const method = 'engram/memoryAction';
  export const type = new RequestType<MemoryRef & { readonly action: MemoryAction }, MemoryActionResult, void>(method);
}

export interface MemoryDiff {
  readonly path: string;
  readonly title: string;
  readonly before: string;
  readonly after: string;
  /**
   * 'file': the change shown in the whole file as it is now (the patch reversed out of it);
   * 'hunks': only the changed lines with their context, when the file has moved on or is gone.
   */
  readonly extent: 'file' | 'hunks';
  /** The patch was capped when stored: some of the change is not in it. */
  readonly truncated: boolean;
}

/** Client → server: a diff memory's before and after texts, for VS Code's diff editor. */
export namespace MemoryDiffRequest {
  export const method = 'engram/memoryDiff';
  export const type = new RequestType<MemoryRef, MemoryDiff | null, void>(method);
}

/** Client → server: the line where a symbol is declared in a project file (tree-sitter), to open it there. */
export namespace LocateSymbolRequest {
  export const method = 'engram/locateSymbol';
  export const type = new RequestType<{ readonly projectRoot: string; readonly path: string; readonly symbol: string }, { readonly line: number } | null, void>(method);
}

/**
 * Server → client: a project's memories changed (a write by this server, or by another process
 * such as a hook, the CLI or an MCP server). Views refetch what they show.
 */
export namespace MemoriesChangedNotification {
  export const method = 'engram/memoriesChanged';
  export const type = new NotificationType<{ readonly projectRoot: string }>(method);
}
