import type { FileSnapshot, SnapshotStore } from '../store/snapshotStore';

/** What an agent edit reads and writes of a file's last known content (SnapshotStore, or a batch over it). */
export interface SnapshotAccess {
  get(path: string): Pick<FileSnapshot, 'content'> | null;
  put(path: string, content: string, stat: { size: number; mtimeMs: number }, now: number): void;
}

/**
 * The snapshots of a batch of edits stored together (a slice of a transcript): each file's
 * content is read once and written once, at `flush`, as the last edit left it. An agent editing
 * one file twenty times in a slice wrote its whole text twenty times.
 */
export class PendingSnapshots implements SnapshotAccess {
  private readonly pending = new Map<string, { content: string; stat: { size: number; mtimeMs: number }; now: number }>();
  private readonly read = new Map<string, Pick<FileSnapshot, 'content'> | null>();

  constructor(private readonly store: Pick<SnapshotStore, 'get' | 'put'>) {}

  get(path: string): Pick<FileSnapshot, 'content'> | null {
    const pending = this.pending.get(path);
    if (pending) return pending;
    let stored = this.read.get(path);
    if (stored === undefined) {
      stored = this.store.get(path);
      this.read.set(path, stored && { content: stored.content });
    }
    return stored;
  }

  put(path: string, content: string, stat: { size: number; mtimeMs: number }, now: number): void {
    this.pending.set(path, { content, stat, now });
  }

  /** Writes each file's last content; call inside the transaction that stores the edits. */
  flush(): void {
    for (const [path, { content, stat, now }] of this.pending) this.store.put(path, content, stat, now);
    this.clear();
  }

  /** Forgets what was read and held: the next batch reads the store again. */
  clear(): void {
    this.pending.clear();
    this.read.clear();
  }
}
