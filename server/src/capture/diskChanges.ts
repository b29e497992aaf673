import path from 'node:path';
import type { Project } from '../project';
import { toProjectPath } from '../paths/engramPaths';
import type { CaptureFilter } from './captureFilter';
import { readCapturable } from './readCapturable';
import { fileState, type ChangeRecorder } from './recordChange';
import { walkProject } from './walkProject';

/** A bulk memory lists at most this many files (the rest are counted). */
const BULK_LIST_LIMIT = 500;

/** A file that changed on disk, as the project names it and where it is. */
export interface DiskChange {
  readonly path: string;
  readonly file: string;
  readonly kind: 'changed' | 'created' | 'deleted';
}

/**
 * A burst of changes (a checkout, a pull, a mass edit) as one summary memory titled `title`,
 * with fresh snapshots for every file; `content` is told each file's new text (null: deleted).
 */
export async function recordBulkChange(
  project: Project,
  recorder: ChangeRecorder,
  changes: readonly DiskChange[],
  title: (count: number) => string,
  content: (path: string, text: string | null) => void = () => undefined,
  now: number = Date.now(),
): Promise<void> {
  for (const change of changes) {
    const read = change.kind === 'deleted' ? null : await readCapturable(change.file);
    if (read && !read.ok) continue;
    const state = read ? await fileState(change.file) : null;
    recorder.remember(change.path, read ? read.text : null, state ?? { size: read?.bytes ?? 0, mtimeMs: now });
    content(change.path, read ? read.text : null);
  }
  const paths = changes.map((c) => c.path).sort();
  const shown = paths.slice(0, BULK_LIST_LIMIT);
  project.store.add(
    {
      kind: 'summary',
      title: title(paths.length),
      body: [...shown, ...(paths.length > shown.length ? [`… and ${paths.length - shown.length} more`] : [])].join('\n'),
      source: 'disk',
      files: shown,
      importance: 0.3,
      meta: { bulk: true, count: paths.length },
    },
    now,
  );
}

/** What the memory server is told of the disk capture's work. */
export interface DiskCaptureEvents {
  info(message: string): void;
  warn(message: string): void;
  /** A memory was recorded (CodeLens and the status bar refresh). */
  recorded(): void;
  /** The new content of a file changed on disk (null: deleted), e.g. to re-find pinned code. */
  content(path: string, text: string | null): void;
}

/**
 * The memory server's policy for changes made outside the editor, in one project: at start, the
 * files changed while VS Code was closed (the first run takes every file as a baseline); then
 * each burst of watched changes — moves (a delete and a create of the same content) followed as
 * renames, more than `bulkThreshold` files as one summary, the rest one diff memory each.
 */
export class DiskChangeCapture {
  constructor(
    private readonly project: Project,
    private readonly recorder: ChangeRecorder,
    private readonly filter: CaptureFilter,
    private readonly bulkThreshold: number,
    private readonly events: DiskCaptureEvents,
  ) {}

  /** Brings the project's snapshots in line with the disk at start. */
  async syncAtStart(): Promise<void> {
    const { project, filter } = this;
    const started = Date.now();
    const known = new Map(project.snapshots.list().map((s) => [s.path, s]));
    const firstRun = known.size === 0;
    const { files, truncated } = await walkProject(project.root, filter);
    if (truncated) this.events.warn(`${project.root} has more than ${files.length} files; only those were scanned at start.`);
    for (const file of files) {
      const relative = toProjectPath(project.root, file);
      if (relative === null) continue;
      const snapshot = known.get(relative);
      known.delete(relative);
      if (firstRun) {
        const read = await readCapturable(file);
        const state = await fileState(file);
        if (read.ok && state) this.recorder.baseline(relative, read.text, state);
        continue;
      }
      const state = await fileState(file);
      if (snapshot && state && state.size === snapshot.size && Math.trunc(state.mtimeMs) === snapshot.mtimeMs) continue;
      await this.captureOne({ path: relative, file, kind: snapshot ? 'changed' : 'created' });
    }
    // Known files the walk did not see: deleted, unless now excluded or beyond the walk's limit.
    if (!truncated) {
      for (const relative of known.keys()) {
        const file = path.join(project.root, relative);
        if (!filter.exclusion(file) && (await fileState(file)) === null) await this.captureOne({ path: relative, file, kind: 'deleted' });
      }
    }
    this.events.info(`Capture ${firstRun ? 'took a baseline of' : 'checked'} ${files.length} files in ${project.root} (${Date.now() - started} ms).`);
  }

  /** One burst of changes the file watcher reported. */
  async capture(changes: readonly DiskChange[]): Promise<void> {
    const list = await this.takeMoves(changes);
    if (list.length > this.bulkThreshold) {
      await recordBulkChange(this.project, this.recorder, list, (n) => `${n} files changed on disk at once (checkout, pull or mass edit)`, (p, text) => this.events.content(p, text));
      this.events.recorded();
    } else {
      for (const change of list) await this.captureOne(change);
    }
  }

  /** A file or folder renamed (in VS Code, or a move found on disk): memories and snapshots follow. */
  rename(from: string, to: string): void {
    this.project.snapshots.rename(from, to);
    const moved = this.project.store.renamePath(from, to);
    this.events.info(`Followed ${from} → ${to}${moved ? ` in ${moved} memories` : ''}.`);
    if (moved) this.events.recorded();
  }

  /**
   * A move outside VS Code (git mv, a script) arrives as a delete and a create of the same content
   * in one burst: treat those pairs as renames, and return the changes that remain.
   */
  private async takeMoves(changes: readonly DiskChange[]): Promise<readonly DiskChange[]> {
    const { project } = this;
    const deleted = changes.filter((c) => c.kind === 'deleted' && project.snapshots.stat(c.path));
    const created = changes.filter((c) => c.kind === 'created');
    if (deleted.length === 0 || created.length === 0) return changes;
    const createdByHash = new Map<string, DiskChange>();
    for (const change of created) {
      const read = await readCapturable(change.file);
      if (read.ok) createdByHash.set(this.recorder.storedHash(read.text), change);
    }
    const moved = new Set<DiskChange>();
    for (const change of deleted) {
      const target = createdByHash.get(project.snapshots.stat(change.path)!.hash);
      if (!target || moved.has(target)) continue;
      this.rename(change.path, target.path);
      moved.add(change).add(target);
    }
    return changes.filter((c) => !moved.has(c));
  }

  private async captureOne(change: DiskChange): Promise<void> {
    if (change.kind === 'deleted') {
      const outcome = await this.recorder.record(change.path, null, 'disk', { size: 0, mtimeMs: Date.now() });
      this.events.content(change.path, null);
      if (outcome.kind === 'recorded') this.events.recorded();
      return;
    }
    const read = await readCapturable(change.file);
    if (!read.ok) {
      if (read.reason !== 'missing') this.events.info(`Not capturing ${change.path}: ${read.detail}`);
      return;
    }
    const state = (await fileState(change.file)) ?? { size: read.bytes, mtimeMs: Date.now() };
    const outcome = await this.recorder.record(change.path, read.text, 'disk', state, { isNew: change.kind === 'created' });
    this.events.content(change.path, read.text);
    if (outcome.kind === 'recorded') this.events.recorded();
  }
}
