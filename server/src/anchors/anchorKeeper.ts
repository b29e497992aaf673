import type { Anchor, Memory, MemoryId } from '../memory/types';
import type { Project } from '../project';
import { anchorLines, onlyWhitespace } from './anchorFromText';
import { relocateAnchor } from './relocateAnchor';
import { shiftSpan, type LineSpan, type TextEdit } from './shiftAnchor';
import { withLfEndings } from '../util/lineEndings';

/** Where one pinned selection is in an open document right now. */
export interface LiveAnchor {
  readonly memoryId: MemoryId;
  readonly span: LineSpan;
  readonly stale: boolean;
}

interface OpenDocument {
  readonly project: Project;
  readonly path: string;
  readonly anchors: Map<MemoryId, { span: LineSpan; stale: boolean }>;
}

/**
 * Keeps pinned selections on the code they govern. In an open document each edit shifts them
 * (in memory: typing writes nothing); a save stores where they are, with the new content hash.
 * A file changed on disk (or opened after a change Engram missed) is searched by content hash
 * and surrounding lines. Code that is gone makes its anchors stale — shown as such, never moved
 * to other code.
 */
export class AnchorKeeper {
  private readonly open = new Map<string, OpenDocument>();

  constructor(private readonly onChanged: (project: Project) => void = () => undefined) {}

  /** A document was opened: find its anchors in the text the editor has. */
  opened(uri: string, project: Project, path: string, text: string): void {
    const anchors = new Map<MemoryId, { span: LineSpan; stale: boolean }>();
    const changed = this.relocateAll(project, path, text, (id, relocated) => {
      anchors.set(id, { span: { start: relocated.range.startLine, end: relocated.range.endLine }, stale: relocated.stale });
    });
    this.open.set(uri, { project, path, anchors });
    if (changed) this.onChanged(project);
  }

  /** Edits to an open document, in order; `lineLength` answers for the text before each edit. */
  edited(uri: string, edits: readonly TextEdit[], lineLength: (edit: number, line: number) => number): void {
    const doc = this.open.get(uri);
    if (!doc) return;
    edits.forEach((edit, i) => {
      for (const anchor of doc.anchors.values()) {
        if (anchor.stale) continue;
        const shifted = shiftSpan(anchor.span, edit, (line) => lineLength(i, line));
        if (shifted.kind === 'gone') anchor.stale = true;
        else anchor.span = shifted.span;
      }
    });
  }

  /** Saved: store each anchor where it is now, hashed on the saved text. */
  saved(uri: string, text: string): void {
    const doc = this.open.get(uri);
    if (!doc) return;
    let changed = false;
    const lines = withLfEndings(text).split('\n').length;
    for (const [id, live] of doc.anchors) {
      const memory = doc.project.store.get(id);
      if (!memory?.anchor) continue;
      // Gone past the end, or all but its indentation deleted: the code is gone.
      if (live.span.end >= lines || onlyWhitespace(text, live.span.start, live.span.end)) live.stale = true;
      const next: Anchor = live.stale ? { ...memory.anchor, stale: true } : { ...anchorLines(doc.path, text, live.span.start, live.span.end), stale: false };
      if (this.differs(memory.anchor, next)) {
        this.store(doc.project, memory, next);
        changed = true;
      }
    }
    if (changed) this.onChanged(doc.project);
  }

  /** Closed without saving: the editor's unsaved shifts are dropped with its text. */
  closed(uri: string): void {
    this.open.delete(uri);
  }

  /** A pinned selection was added (or changed) while its document is open. */
  track(uri: string, memory: Memory): void {
    const doc = this.open.get(uri);
    if (doc && memory.anchor) doc.anchors.set(memory.id, { span: { start: memory.anchor.range.startLine, end: memory.anchor.range.endLine }, stale: memory.anchor.stale });
  }

  /** The live position of each anchor in an open document (null when the document is not open). */
  liveAnchors(uri: string): ReadonlyMap<MemoryId, LiveAnchor> | null {
    const doc = this.open.get(uri);
    if (!doc) return null;
    return new Map([...doc.anchors].map(([id, a]) => [id, { memoryId: id, span: a.span, stale: a.stale }]));
  }

  /** A file changed (or was deleted: `text` null) on disk while not open in the editor. */
  changedOnDisk(project: Project, path: string, text: string | null): void {
    if ([...this.open.values()].some((d) => d.project === project && d.path === path)) return;
    if (this.relocateAll(project, path, text)) this.onChanged(project);
  }

  /**
   * Finds each anchor of a file in `text` (null: the file is gone), stores those that moved or
   * went stale, and tells `found` where each is; returns whether any was stored.
   */
  private relocateAll(project: Project, path: string, text: string | null, found: (id: MemoryId, anchor: Anchor) => void = () => undefined): boolean {
    let changed = false;
    for (const memory of project.store.anchoredAt(path)) {
      const relocated = relocateAnchor(memory.anchor!, text);
      if (this.differs(memory.anchor!, relocated)) {
        this.store(project, memory, relocated);
        changed = true;
      }
      found(memory.id, relocated);
    }
    return changed;
  }

  private differs(a: Anchor, b: Anchor): boolean {
    return a.stale !== b.stale || a.contentHash !== b.contentHash || a.range.startLine !== b.range.startLine || a.range.endLine !== b.range.endLine || a.contextBefore !== b.contextBefore || a.contextAfter !== b.contextAfter;
  }

  private store(project: Project, memory: Memory, anchor: Anchor): void {
    project.store.update({ ...memory, anchor });
  }
}
