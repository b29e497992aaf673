/**
 * Messages between the memory views (the sidebar panel and the timeline) and the extension, which
 * owns all traffic with the memory server. A webview asks with a `call` and gets one `reply` with
 * the same requestId; the extension pushes state (`panel`, `changed`, `focus`) on its own.
 * The extension validates every call's params (zod, client/src/views/viewCalls.ts); webviews check
 * what they receive with `isExtensionMessage`.
 */
import type { InjectionEntry } from './protocol';
import type {
  AgentSessionSummary,
  MemoryAction,
  MemoryActionResult,
  MemoryPanel,
  MemoryRef,
  MemorySelection,
  TimelinePage,
  TimelinePageParams,
  TimelineSearch,
  TimelineSearchParams,
  ViewMemory,
} from './viewProtocol';

/** A place to open: a project file, at a 0-based line or at a symbol's declaration. */
export interface OpenTarget {
  readonly projectRoot: string;
  readonly path: string;
  readonly line?: number;
  readonly symbol?: string;
}

export type TimelineTab = 'timeline' | 'injections';

/** What a webview can ask the extension, with what it gets back. */
export interface ViewCalls {
  /** The timeline, newest first, one keyset page at a time. */
  page: { params: TimelinePageParams; result: TimelinePage };
  /** The timeline's search box (recall). */
  search: { params: TimelineSearchParams; result: TimelineSearch };
  sessions: { params: { readonly projectRoot?: string }; result: { readonly projectRoot: string; readonly sessions: readonly AgentSessionSummary[] } };
  /** What Engram gave one agent session. */
  injections: { params: { readonly projectRoot: string; readonly sessionId: string }; result: readonly InjectionEntry[] };
  /** A memory with its whole body. */
  detail: { params: MemoryRef; result: ViewMemory | null };
  /** Pin / unpin, forget / restore / archive, edit. */
  action: { params: MemoryRef & { readonly action: Exclude<MemoryAction, { type: 'copy' }> }; result: MemoryActionResult };
  /** "Copy as context": the text hooks give agents, put on the clipboard. */
  copy: { params: MemoryRef; result: { readonly text: string } };
  /** "Copy as context" of a memory only on the team hub: its card carries the text (ViewMemory.hub.context). */
  copyText: { params: { readonly title: string; readonly text: string }; result: { readonly text: string } };
  /** A diff memory in VS Code's diff editor. */
  diff: { params: MemoryRef; result: null };
  open: { params: OpenTarget; result: null };
  openTimeline: { params: { readonly sessionId?: string; readonly tab?: TimelineTab }; result: null };
  /** Sidebar: fetch the panel again for where the editor is. */
  refresh: { params: Record<string, never>; result: null };
  /** Sidebar: leave the memories a CodeLens or hover named ("Show all for this file") and follow the editor again. */
  follow: { params: Record<string, never>; result: null };
  /** Sidebar: show what the file's top CodeLens counts (every constraint of the file first), as clicking it does. */
  showFileMemories: { params: Record<string, never>; result: null };
  /** The "what to do" buttons of empty and error states. */
  command: { params: { readonly command: 'showLog' | 'restartServer' | 'pinSelection' }; result: null };
}

export type ViewCallMethod = keyof ViewCalls;

export type ViewCall = { [M in ViewCallMethod]: { readonly type: 'call'; readonly requestId: number; readonly method: M; readonly params: ViewCalls[M]['params'] } }[ViewCallMethod];

/** Webview → extension. `ready`: the page loaded (again, after being hidden) and wants its state. */
export type WebviewMessage = { readonly type: 'ready' } | ViewCall;

/** What the sidebar shows: where the editor is, or why there is nothing to show. */
export type PanelState =
  | { readonly kind: 'loading'; readonly path: string | null }
  | { readonly kind: 'noEditor' }
  | { readonly kind: 'outside'; readonly path: string }
  | { readonly kind: 'unavailable'; readonly message: string }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'ready'; readonly panel: MemoryPanel }
  /**
   * Only the memories a CodeLens or hover link named (`engram.showMemories`), until the user asks
   * for all of the file's or moves to another file. `from` says where they came from ("the CodeLens
   * on findCustomer"); `request` is new for each use of the command (the page moves focus to the
   * banner once per request, not on every refetch).
   */
  | { readonly kind: 'selection'; readonly selection: MemorySelection; readonly from: string | null; readonly request: number };

/** Extension → webview. */
export type ExtensionMessage =
  | { readonly type: 'reply'; readonly requestId: number; readonly ok: true; readonly result: unknown }
  | { readonly type: 'reply'; readonly requestId: number; readonly ok: false; readonly message: string }
  /** Sidebar: new state for the editor's place. */
  | { readonly type: 'panel'; readonly state: PanelState }
  /** Timeline: a project's memories changed (any process); refetch what is shown. */
  | { readonly type: 'changed'; readonly projectRoot: string | null }
  /** Timeline: show this tab / session (from the sidebar's session links). */
  | { readonly type: 'focus'; readonly tab: TimelineTab; readonly sessionId: string | null }
  /** Timeline: the memory server is not running (calls will fail until it is). */
  | { readonly type: 'unavailable'; readonly message: string };

const EXTENSION_MESSAGE_TYPES = new Set(['reply', 'panel', 'changed', 'focus', 'unavailable']);

/** The webview's light check on receipt: the message comes from the extension and has a known type. */
export function isExtensionMessage(data: unknown): data is ExtensionMessage {
  return typeof data === 'object' && data !== null && EXTENSION_MESSAGE_TYPES.has((data as { type?: unknown }).type as string);
}
