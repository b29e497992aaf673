import { PendingSnapshots } from '../capture/pendingSnapshots';
import type { AgentEditWrites } from '../capture/recordChange';
import { completeMemory } from '../memory/newMemory';
import type { Memory, NewMemory } from '../memory/types';
import type { Project } from '../project';
import { FtsTags } from '../store/bulkImportTags';
import { prepareForImport, type PreparedMemory } from '../store/preparedImport';

/**
 * The writes a slice of a transcript makes, held while its records are read (which may wait for
 * a grammar to load) and then stored in one transaction with the slice's read position: a
 * process killed at any point has stored all of a slice or none of it. New memories go through
 * the bulk import's writer (store/bulkImport.ts), which writes their full-text rows at the end:
 * a memory added in a slice is not changed later in the same slice. Each file's snapshot is
 * written once, as the slice's last edit of it left it (PendingSnapshots).
 */
export class SliceWrites implements AgentEditWrites {
  private pending: ((writes: SliceWrites) => void)[] = [];
  private added: PreparedMemory[] = [];
  private readonly addedRefs = new Set<string>();
  private readonly addedIds = new Set<string>();
  private readonly diskDiffs = new Map<string, { readonly since: number; readonly found: Memory | null }>();
  /** No active disk diff was updated since this time (null: not known). */
  private noDiskDiffsSince: number | null = null;
  private readonly tags = new FtsTags();
  readonly snapshots: PendingSnapshots;

  constructor(private readonly project: Pick<Project, 'store' | 'snapshots' | 'redactor'>) {
    this.snapshots = new PendingSnapshots(project.snapshots);
  }

  /** Holds `write` until the slice is stored; it runs in the slice's transaction, in the order held. */
  hold(write: (writes: SliceWrites) => void): void {
    this.pending.push(write);
  }

  has(sourceRef: string): boolean {
    return this.addedRefs.has(sourceRef) || this.project.store.bySourceRef(sourceRef) !== null;
  }

  add(memory: NewMemory, at: number): Memory {
    const prepared = prepareForImport(completeMemory(memory, at), this.project.redactor, this.tags);
    this.added.push(prepared);
    this.addedIds.add(prepared.stored.id);
    if (memory.sourceRef) this.addedRefs.add(memory.sourceRef);
    return prepared.stored;
  }

  /**
   * Asked for each edit: one query per file per slice, not one per edit. Exact: no other writer
   * adds a disk diff during the slice's transaction, and `update` forgets what it changes.
   */
  latestDiskDiff(path: string, since: number): Memory | null {
    // Most slices are read where no file changed on disk: one question answers for every file.
    if (this.noDiskDiffsSince !== null && since >= this.noDiskDiffsSince) return null;
    if (this.noDiskDiffsSince === null && !this.diskDiffs.size && !this.project.store.hasDiffSince('disk', since)) {
      this.noDiskDiffsSince = since;
      return null;
    }
    const known = this.diskDiffs.get(path);
    // The newest since an earlier time is also the newest since a later one, if it is that recent.
    if (known && since >= known.since) return known.found && known.found.updatedAt >= since ? known.found : null;
    const found = this.project.store.latestDiff(path, 'disk', since);
    this.diskDiffs.set(path, { since, found });
    return found;
  }

  update(memory: Memory): Memory | null {
    if (this.addedIds.has(memory.id)) throw new Error(`memory ${memory.id} was added in this slice: its full-text row is not written yet`);
    // A diff is found by its files: what is known of them may change with it.
    for (const path of memory.files) this.diskDiffs.delete(path);
    return this.project.store.update(memory);
  }

  /** Runs the held writes, then `finish` (the slice's session and read position), in one transaction. */
  store(finish: () => void): void {
    const transaction = this.project.store.beginImport();
    try {
      for (const write of this.pending) write(this);
      transaction.add(this.added);
      this.snapshots.flush();
      finish();
      transaction.commit();
    } catch (error) {
      transaction.rollback();
      throw error;
    } finally {
      this.pending = [];
      this.added = [];
      this.addedRefs.clear();
      this.addedIds.clear();
      this.diskDiffs.clear();
      this.noDiskDiffsSince = null;
      this.snapshots.clear();
    }
  }
}
