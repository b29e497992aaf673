import { stat } from 'node:fs/promises';
import type { Memory, MemorySource, NewMemory } from '../memory/types';
import type { Project } from '../project';
import { changedSymbols } from './changedSymbols';
import { diffTexts, type TextDiff } from './diffTexts';
import { diffTitle, type ChangeKind } from './diffTitle';
import { LastRedactedTexts } from './lastRedactedTexts';
import type { SnapshotAccess } from './pendingSnapshots';
import { contentHash } from '../store/snapshotStore';

export interface CaptureSettings {
  /** Saves of the same symbol within this window update one diff memory. */
  readonly coalesceWindowMs: number;
}

export const DEFAULT_CAPTURE_SETTINGS: CaptureSettings = { coalesceWindowMs: 10 * 60_000 };

/** How many earlier revisions a coalesced diff memory keeps in full. */
const MAX_REVISIONS = 50;
/** How far back a user's change looks for the agent change of the same lines it revises. */
const REVISES_WINDOW_MS = 7 * 24 * 60 * 60_000;
const REVISES_CANDIDATES = 10;

/** 0-based inclusive line spans; context lines included, so "the same lines" means "within a few lines". */
type Span = readonly [number, number];

function newSpans(diff: TextDiff): Span[] {
  return diff.hunks.map((h) => [h.newStart - 1, h.newStart - 1 + Math.max(h.newLines, 1) - 1] as const);
}

function oldSpans(diff: TextDiff): Span[] {
  return diff.hunks.map((h) => [h.oldStart - 1, h.oldStart - 1 + Math.max(h.oldLines, 1) - 1] as const);
}

function overlaps(a: readonly Span[], b: readonly Span[]): boolean {
  return a.some(([s1, e1]) => b.some(([s2, e2]) => s1 <= e2 && s2 <= e1));
}

export type CaptureOutcome =
  | { readonly kind: 'recorded'; readonly memory: Memory; readonly coalesced: boolean }
  | { readonly kind: 'baseline' }
  | { readonly kind: 'unchanged' };

/** One earlier state of a coalesced diff memory, so its full history stays recoverable. */
interface Revision {
  readonly at: number;
  readonly title: string;
  readonly added: number;
  readonly removed: number;
  readonly symbols: readonly string[];
  readonly patch: string;
}

/** Where an agent's edit comes from: its why, session, id (`sourceRef`) and time. */
export interface AgentEditOrigin {
  readonly why: string | null;
  readonly sessionId: string;
  readonly sourceRef: string;
  readonly at: number;
}

/** An agent's edit read and diffed (both sides redacted), ready to be stored by `applyAgentEdit`. */
export interface PreparedAgentEdit {
  readonly path: string;
  readonly origin: AgentEditOrigin;
  readonly before: string | null;
  readonly after: string;
  /** The unredacted new text's size, for the snapshot. */
  readonly afterBytes: number;
  readonly diff: TextDiff;
  readonly symbols: readonly string[];
}

/** Where an agent edit's writes go: straight to the store, or held for a batch stored in one transaction. */
export interface AgentEditWrites {
  readonly snapshots: SnapshotAccess;
  /** Whether a memory with this `sourceRef` is stored (or added earlier in the batch). */
  has(sourceRef: string): boolean;
  /** Adds a new memory; returns it as stored. */
  add(memory: NewMemory, at: number): Memory;
  /** The newest active disk diff of `path` updated since `since` (MemoryStore.latestDiff). */
  latestDiskDiff(path: string, since: number): Memory | null;
  /** Replaces a stored memory (MemoryStore.update). */
  update(memory: Memory): Memory | null;
}

export interface FileState {
  readonly size: number;
  readonly mtimeMs: number;
}

/** A file's size and modification time as capture compares them, or null when it is gone. */
export async function fileState(file: string): Promise<FileState | null> {
  try {
    const info = await stat(file);
    return { size: info.size, mtimeMs: info.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Turns the new content of a file into a diff memory: diffed against the last known content,
 * tagged with the symbols it touches, coalesced with a recent memory of the same symbols.
 */
export class ChangeRecorder {
  /** An edit's text before is usually the previous edit's text after: redacted once. */
  private readonly lastEdits: LastRedactedTexts;
  private readonly storeWrites: AgentEditWrites;

  constructor(
    private readonly project: Project,
    private readonly settings: CaptureSettings = DEFAULT_CAPTURE_SETTINGS,
    /** Told when a file could not be parsed for symbols (the memory is then file-level). */
    private readonly onProblem: (message: string) => void = () => undefined,
  ) {
    this.lastEdits = new LastRedactedTexts(project.redactor);
    const store = project.store;
    this.storeWrites = {
      snapshots: project.snapshots,
      has: (sourceRef) => store.bySourceRef(sourceRef) !== null,
      add: (memory, at) => store.add(memory, at),
      latestDiskDiff: (path, since) => store.latestDiff(path, 'disk', since),
      update: (memory) => store.update(memory),
    };
  }

  /** First sight of a file (opened, or seen on disk): remember its content to diff against later. */
  baseline(path: string, text: string, state: FileState): 'baseline' | 'known' {
    if (this.project.snapshots.stat(path)) return 'known';
    this.remember(path, text, state);
    return 'baseline';
  }

  /**
   * Makes `text` the last known content of `path` without recording a change (null: forget it).
   * Snapshots hold the redacted text, and diffs compare that form on both sides, so no secret
   * reaches the database through the content cache.
   */
  remember(path: string, text: string | null, state: FileState): void {
    if (text === null) this.project.snapshots.remove(path);
    else this.project.snapshots.put(path, this.project.redactor.text(text), state);
  }

  /** The hash `text` has as a snapshot: equal to a known file's hash when it holds the same content. */
  storedHash(text: string): string {
    return contentHash(this.project.redactor.text(text));
  }

  /**
   * Records a change. `text` null means deleted. A file never seen before is a creation when
   * `isNew`, else only remembered as a baseline (there is nothing to diff it against).
   */
  async record(path: string, text: string | null, source: Extract<MemorySource, 'editor' | 'disk'>, state: FileState, options: { isNew?: boolean; now?: number } = {}): Promise<CaptureOutcome> {
    const now = options.now ?? Date.now();
    // The stored form (see `remember`): both sides of the diff are redacted.
    const after = text === null ? null : this.project.redactor.text(text);
    const snapshot = this.project.snapshots.get(path);
    if (!snapshot && after !== null && !options.isNew) {
      this.project.snapshots.put(path, after, state, now);
      return { kind: 'baseline' };
    }
    if (!snapshot && after === null) return { kind: 'unchanged' };
    const before = snapshot?.content ?? null;
    const diff = diffTexts(path, before, after);
    if (after === null) this.project.snapshots.remove(path);
    if (!diff) {
      if (after !== null) this.project.snapshots.touch(path, state, now);
      return { kind: 'unchanged' };
    }
    if (after !== null) this.project.snapshots.put(path, after, state, now);

    const kind: ChangeKind = before === null ? 'created' : after === null ? 'deleted' : 'edited';
    const symbols = await this.symbolsOf(path, before, after, diff);
    const recent = kind === 'edited' ? this.project.store.latestDiff(path, source, now - this.settings.coalesceWindowMs) : null;
    if (recent && sameSubject(recent, symbols)) {
      const memory = this.coalesce(recent, path, symbols, diff, now);
      this.linkRevisedAgentChanges(memory, path, diff, now);
      return { kind: 'recorded', memory, coalesced: true };
    }
    const memory = this.project.store.add(diffMemory(path, kind, symbols, diff, { source, importance: 0.4 }), now);
    this.linkRevisedAgentChanges(memory, path, diff, now);
    return { kind: 'recorded', memory, coalesced: false };
  }

  /**
   * A user's (or another program's) change of lines an agent changed recently is linked to that
   * agent change ('revises'), so "Claude wrote this, then you fixed it" can be shown and learned from.
   */
  private linkRevisedAgentChanges(memory: Memory, path: string, diff: TextDiff, now: number): void {
    const touched = oldSpans(diff);
    for (const agent of this.project.store.recentDiffs(path, 'claude', now - REVISES_WINDOW_MS, REVISES_CANDIDATES)) {
      const lines = agent.meta.lines as Span[] | undefined;
      if (agent.id !== memory.id && lines && overlaps(lines, touched)) this.project.store.link(memory.id, agent.id, 'revises');
    }
  }

  /**
   * An edit an agent reports (Claude Code's Write/Edit result): the change from `before` to `after`
   * with its why. The same change seen on disk is recorded once: a recent disk memory with the same
   * patch takes the agent's why and session instead of a second memory being made; and the
   * snapshot moves on, so the watcher finds nothing new afterwards. Idempotent by `sourceRef`.
   */
  async recordAgentEdit(path: string, beforeText: string | null, afterText: string, origin: AgentEditOrigin): Promise<CaptureOutcome> {
    // Asked first too, so an edit a transcript's ingest stored already costs a hook no parse.
    if (this.storeWrites.has(origin.sourceRef)) return { kind: 'unchanged' };
    const prepared = await this.prepareAgentEdit(path, beforeText, afterText, origin);
    return prepared ? this.project.transaction(() => this.applyAgentEdit(prepared)) : { kind: 'unchanged' };
  }

  /**
   * The reading half of `recordAgentEdit`: redaction, diff and symbols, which may wait for a
   * grammar to load. Null when the edit changes nothing; whether it is stored already is asked
   * when it is applied.
   */
  async prepareAgentEdit(path: string, beforeText: string | null, afterText: string, origin: AgentEditOrigin): Promise<PreparedAgentEdit | null> {
    const before = beforeText === null ? null : this.lastEdits.redacted(path, beforeText);
    const after = this.lastEdits.redacted(path, afterText);
    const diff = diffTexts(path, before, after);
    if (!diff) return null;
    const symbols = await this.symbolsOf(path, before, after, diff);
    return { path, origin, before, after, afterBytes: Buffer.byteLength(afterText), diff, symbols };
  }

  /**
   * The writing half of `recordAgentEdit`: synchronous, so a caller can store many in one
   * transaction through `writes` (a transcript's slice: see transcripts/sliceWrites.ts).
   */
  applyAgentEdit(edit: PreparedAgentEdit, writes: AgentEditWrites = this.storeWrites): CaptureOutcome {
    const { path, origin, before, after, diff } = edit;
    if (writes.has(origin.sourceRef)) return { kind: 'unchanged' };
    const snapshot = writes.snapshots.get(path);
    if (!snapshot || snapshot.content === before) writes.snapshots.put(path, after, { size: edit.afterBytes, mtimeMs: origin.at }, origin.at);

    const seenOnDisk = writes.latestDiskDiff(path, origin.at - this.settings.coalesceWindowMs);
    if (seenOnDisk && seenOnDisk.body === diff.patch) {
      const linked = writes.update({
        ...seenOnDisk,
        source: 'claude',
        why: origin.why,
        sessionId: origin.sessionId,
        sourceRef: origin.sourceRef,
        meta: { ...seenOnDisk.meta, alsoSeenAs: 'disk' },
      });
      return { kind: 'recorded', memory: linked ?? seenOnDisk, coalesced: true };
    }
    const kind: ChangeKind = before === null ? 'created' : 'edited';
    const memory = writes.add(diffMemory(path, kind, edit.symbols, diff, { source: 'claude', importance: 0.5, why: origin.why, sessionId: origin.sessionId, sourceRef: origin.sourceRef }), origin.at);
    return { kind: 'recorded', memory, coalesced: false };
  }

  private symbolsOf(path: string, before: string | null, after: string | null, diff: TextDiff): Promise<string[]> {
    return changedSymbols(path, before, after, diff, (error) => this.onProblem(`Symbols of ${path} could not be read: ${error.message}`));
  }

  /** Folds a new change into a recent memory of the same symbols; the previous state becomes a revision. */
  private coalesce(recent: Memory, path: string, symbols: readonly string[], diff: TextDiff, now: number): Memory {
    const meta = recent.meta as { added?: number; removed?: number; revisions?: Revision[] };
    const added = (meta.added ?? 0) + diff.added;
    const removed = (meta.removed ?? 0) + diff.removed;
    const allSymbols = [...new Set([...recent.symbols, ...symbols])];
    const revision: Revision = { at: recent.updatedAt, title: recent.title, added: meta.added ?? 0, removed: meta.removed ?? 0, symbols: recent.symbols, patch: recent.body };
    const revisions = [...(meta.revisions ?? []), revision].slice(-MAX_REVISIONS);
    const updated = this.project.store.update({
      ...recent,
      title: diffTitle('edited', path, allSymbols, added, removed),
      body: diff.patch,
      symbols: allSymbols,
      updatedAt: now,
      meta: { ...recent.meta, added, removed, truncated: diff.truncated, lineEndingsOnly: diff.lineEndingsOnly, lines: newSpans(diff), revisions },
    });
    return updated ?? recent;
  }
}

/** A new diff memory; `origin` says where it came from (source, and for agents the why and session). */
function diffMemory(
  path: string,
  kind: ChangeKind,
  symbols: readonly string[],
  diff: TextDiff,
  origin: Pick<NewMemory, 'source' | 'importance' | 'why' | 'sessionId' | 'sourceRef'>,
): NewMemory {
  return {
    ...origin,
    kind: 'diff',
    title: diffTitle(kind, path, symbols, diff.added, diff.removed),
    body: diff.patch,
    files: [path],
    symbols,
    meta: { change: kind, added: diff.added, removed: diff.removed, truncated: diff.truncated, lineEndingsOnly: diff.lineEndingsOnly, lines: newSpans(diff), revisions: [] },
  };
}

/** Saves "of the same symbol": the symbol sets meet, or both changes are file-level. */
function sameSubject(recent: Memory, symbols: readonly string[]): boolean {
  if (recent.symbols.length === 0 && symbols.length === 0) return true;
  return symbols.some((s) => recent.symbols.includes(s));
}
