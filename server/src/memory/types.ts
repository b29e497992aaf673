/** What Engram remembers: the shapes shared by the store, recall, LSP, CLI and MCP. */

export const MEMORY_KINDS = ['diff', 'constraint', 'decision', 'gotcha', 'summary', 'note', 'fact', 'intent'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

/**
 * editor: saved in VS Code; disk: changed on disk by another program (git, formatters, agents);
 * git: a commit of the project's history, imported (docs/history.md).
 */
export const MEMORY_SOURCES = ['editor', 'disk', 'claude', 'user', 'mcp', 'git'] as const;
export type MemorySource = (typeof MEMORY_SOURCES)[number];

/** hard: never evicted, always given where it applies; soft: ranked first, may be cut by a budget. */
export const PIN_LEVELS = ['none', 'soft', 'hard'] as const;
export type PinLevel = (typeof PIN_LEVELS)[number];

/** Memories are never silently deleted: forgetting is a status, purging is explicit. */
export const MEMORY_STATUSES = ['active', 'archived', 'forgotten'] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

declare const memoryIdBrand: unique symbol;
export type MemoryId = string & { readonly [memoryIdBrand]: true };

/** Zero-based, LSP-style range. */
export interface TextRange {
  readonly startLine: number;
  readonly startCharacter: number;
  readonly endLine: number;
  readonly endCharacter: number;
}

/**
 * Where a pinned selection lives: the range plus enough of the code to find it again after
 * edits (content hash, the lines around it). Stale when the anchored code is gone.
 */
export interface Anchor {
  readonly path: string;
  readonly range: TextRange;
  readonly contentHash: string;
  readonly contextBefore: string;
  readonly contextAfter: string;
  readonly stale: boolean;
}

export interface Memory {
  readonly id: MemoryId;
  readonly kind: MemoryKind;
  readonly title: string;
  readonly body: string;
  readonly why: string | null;
  readonly source: MemorySource;
  readonly sessionId: string | null;
  /** Where it came from outside Engram (`claude:<transcript record uuid>`, `git:<commit>:<path>`); unique, for idempotent ingest. */
  readonly sourceRef: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly importance: number;
  readonly pin: PinLevel;
  readonly status: MemoryStatus;
  /** Project-relative, '/'-separated paths. */
  readonly files: readonly string[];
  /** Qualified names such as `Parser.parseExpr`. */
  readonly symbols: readonly string[];
  readonly anchor: Anchor | null;
  /** Kind-specific payload (e.g. a diff's hunks), kept as parsed JSON. */
  readonly meta: Readonly<Record<string, unknown>>;
}

/** What a caller supplies to create a memory; the store fills in id, timestamps and status. */
export interface NewMemory {
  readonly kind: MemoryKind;
  readonly title: string;
  readonly body?: string;
  readonly why?: string | null;
  readonly source: MemorySource;
  readonly sessionId?: string | null;
  readonly sourceRef?: string | null;
  readonly importance?: number;
  readonly pin?: PinLevel;
  readonly files?: readonly string[];
  readonly symbols?: readonly string[];
  readonly anchor?: Omit<Anchor, 'stale'> | null;
  readonly meta?: Record<string, unknown>;
}
