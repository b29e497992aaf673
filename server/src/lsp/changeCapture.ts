import path from 'node:path';
import { FileChangeType, type Connection, type TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CaptureFilter } from '../capture/captureFilter';
import { checkCapturableText, readCapturable } from '../capture/readCapturable';
import { ChangeRecorder, fileState, type CaptureSettings } from '../capture/recordChange';
import { walkProject } from '../capture/walkProject';
import type { Project } from '../project';
import { toProjectPath } from '../paths/engramPaths';
import { fileDeclarations, languageForPath } from '../symbols';
import type { ProjectRegistry } from './projectRegistry';

export interface ChangeCaptureSettings extends CaptureSettings {
  /** User globs added to the default exclusions (`engram.exclude`). */
  readonly exclude: readonly string[];
  /** More files than this changed on disk in one burst become one summary memory. */
  readonly bulkThreshold: number;
}

/** Disk events are gathered this long, so a save's own event and bursts (checkouts) arrive together. */
const DISK_QUIET_MS = 400;
const BULK_LIST_LIMIT = 500;

interface ProjectCapture {
  readonly recorder: ChangeRecorder;
  readonly filter: CaptureFilter;
}

/**
 * Captures changes to the code as diff memories: editor saves (LSP didSave), files changed on disk
 * by other programs (workspace/didChangeWatchedFiles) and, at start, files changed while VS Code
 * was closed. Work is serialized on one queue so two events for one file never interleave.
 */
export class ChangeCapture {
  private readonly byProject = new Map<string, ProjectCapture>();
  private queue: Promise<void> = Promise.resolve();
  private pendingDisk = new Map<string, FileChangeType>();
  private diskTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connection: Connection,
    documents: TextDocuments<TextDocument>,
    private readonly projects: ProjectRegistry,
    private readonly settings: ChangeCaptureSettings,
    private readonly onRecorded: () => void,
    /** Told the new content of each file changed on disk (null: deleted), e.g. to re-find pinned code. */
    private readonly onDiskContent: (project: Project, path: string, text: string | null) => void = () => undefined,
  ) {
    documents.onDidOpen((event) => this.enqueue(`opening ${event.document.uri}`, () => this.prepareOpenedFile(event.document.uri)));
    documents.onDidSave((event) => this.enqueue(`saving ${event.document.uri}`, () => this.captureSave(event.document)));
    connection.workspace.onDidRenameFiles((params) => this.enqueue('following renames', async () => this.followRenames(params.files)));
    connection.onDidChangeWatchedFiles((params) => {
      for (const change of params.changes) this.pendingDisk.set(change.uri, change.type);
      clearTimeout(this.diskTimer);
      this.diskTimer = setTimeout(() => this.enqueue('changes on disk', () => this.captureDisk()), DISK_QUIET_MS);
    });
  }

  /**
   * Brings each project's snapshots in line with the disk: on the first run every capturable file
   * becomes a baseline; on later runs files changed, created or deleted while VS Code was closed
   * are recorded as changes on disk.
   */
  syncWithDisk(): void {
    for (const project of this.projects.openProjects()) {
      this.enqueue(`scanning ${project.root}`, async () => {
        const started = Date.now();
        const { filter } = this.captureFor(project);
        const known = new Map(project.snapshots.list().map((s) => [s.path, s]));
        const firstRun = known.size === 0;
        const { files, truncated } = await walkProject(project.root, filter);
        if (truncated) this.connection.console.warn(`${project.root} has more than ${files.length} files; only those were scanned at start.`);
        for (const file of files) {
          const relative = toProjectPath(project.root, file);
          if (relative === null) continue;
          const snapshot = known.get(relative);
          known.delete(relative);
          if (firstRun) {
            const read = await readCapturable(file);
            const state = await fileState(file);
            if (read.ok && state) this.captureFor(project).recorder.baseline(relative, read.text, state);
            continue;
          }
          const state = await fileState(file);
          if (snapshot && state && state.size === snapshot.size && Math.trunc(state.mtimeMs) === snapshot.mtimeMs) continue;
          await this.captureFromDisk(project, relative, file, snapshot ? FileChangeType.Changed : FileChangeType.Created);
        }
        // Known files the walk did not see: deleted, unless now excluded or beyond the walk's limit.
        if (!truncated) {
          for (const relative of known.keys()) {
            const file = path.join(project.root, relative);
            if (!filter.exclusion(file) && (await fileState(file)) === null) await this.captureFromDisk(project, relative, file, FileChangeType.Deleted);
          }
        }
        const what = firstRun ? 'took a baseline of' : 'checked';
        this.connection.console.info(`Capture ${what} ${files.length} files in ${project.root} (${Date.now() - started} ms).`);
      });
    }
  }

  private enqueue(what: string, work: () => Promise<void>): void {
    void this.serialize(what, work);
  }

  /**
   * Runs `work` after everything queued before it, so two writers (a save, a disk event, a
   * transcript ingest) never interleave on one file. Failures are logged, not thrown.
   */
  serialize(what: string, work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(() => retriedWhileLocked(work)).catch((error: unknown) => {
      this.connection.console.error(`Capture failed while ${what}: ${(error as Error).stack ?? String(error)}`);
    });
    return this.queue;
  }

  /** The recorder of a project: shared by editor, disk and transcript capture. */
  recorderFor(project: Project): ChangeRecorder {
    return this.captureFor(project).recorder;
  }

  private captureFor(project: Project): ProjectCapture {
    let capture = this.byProject.get(project.root);
    if (!capture) {
      capture = {
        recorder: new ChangeRecorder(project, this.settings, (message) => this.connection.console.warn(message)),
        filter: new CaptureFilter(project.root, { exclude: this.settings.exclude, onWarning: (message) => this.connection.console.warn(message) }),
      };
      this.byProject.set(project.root, capture);
    }
    return capture;
  }

  /** The project file behind a URI, unless capture must leave it alone. */
  private target(uri: string): { project: Project; path: string; file: string; capture: ProjectCapture } | null {
    const located = this.projects.fileFor(uri);
    if (!located) return null;
    const capture = this.captureFor(located.project);
    const { file } = located;
    if (path.basename(file) === '.gitignore') capture.filter.invalidate();
    if (capture.filter.exclusion(file)) return null;
    return { project: located.project, path: located.path, file, capture };
  }

  /**
   * On open: a file never seen before becomes a baseline; then the last known content is parsed
   * in the background, so the first save of even a large file only reparses what changed.
   */
  private async prepareOpenedFile(uri: string): Promise<void> {
    const target = this.target(uri);
    if (!target) return;
    if (!target.project.snapshots.stat(target.path)) {
      const read = await readCapturable(target.file);
      const state = await fileState(target.file);
      if (read.ok && state) target.capture.recorder.baseline(target.path, read.text, state);
    }
    const snapshot = target.project.snapshots.get(target.path);
    const language = languageForPath(target.path);
    if (snapshot && language) await fileDeclarations(target.path, language, snapshot.content);
  }

  private async captureSave(document: TextDocument): Promise<void> {
    const target = this.target(document.uri);
    if (!target) return;
    const text = document.getText();
    const check = checkCapturableText(text);
    if (!check.ok) {
      this.connection.console.info(`Not capturing ${target.path}: ${check.detail}`);
      return;
    }
    const state = (await fileState(target.file)) ?? { size: Buffer.byteLength(text), mtimeMs: Date.now() };
    const outcome = await target.capture.recorder.record(target.path, text, 'editor', state);
    if (outcome.kind === 'recorded') this.onRecorded();
  }

  private async captureDisk(): Promise<void> {
    const changes = this.pendingDisk;
    this.pendingDisk = new Map();
    const perProject = new Map<Project, { path: string; file: string; type: FileChangeType }[]>();
    for (const [uri, type] of changes) {
      const target = this.target(uri);
      if (!target) continue;
      const list = perProject.get(target.project) ?? [];
      list.push({ path: target.path, file: target.file, type });
      perProject.set(target.project, list);
    }
    for (const [project, all] of perProject) {
      const list = await this.takeMoves(project, all);
      if (list.length > this.settings.bulkThreshold) await this.captureBulk(project, list);
      else for (const change of list) await this.captureFromDisk(project, change.path, change.file, change.type);
    }
  }

  /** Renames done in VS Code (files or folders): memories and snapshots follow the new path. */
  private async followRenames(files: readonly { oldUri: string; newUri: string }[]): Promise<void> {
    for (const { oldUri, newUri } of files) {
      const from = this.projects.fileFor(oldUri);
      const to = this.projects.fileFor(newUri);
      if (!from || !to || from.project !== to.project) continue;
      this.rename(from.project, from.path, to.path);
    }
  }

  private rename(project: Project, from: string, to: string): void {
    project.snapshots.rename(from, to);
    const moved = project.store.renamePath(from, to);
    this.connection.console.info(`Followed ${from} → ${to}${moved ? ` in ${moved} memories` : ''}.`);
    if (moved) this.onRecorded();
  }

  /**
   * A move outside VS Code (git mv, a script) arrives as a delete and a create of the same content
   * in one burst: treat those pairs as renames, and return the changes that remain.
   */
  private async takeMoves(project: Project, changes: { path: string; file: string; type: FileChangeType }[]): Promise<typeof changes> {
    const deleted = changes.filter((c) => c.type === FileChangeType.Deleted && project.snapshots.stat(c.path));
    const created = changes.filter((c) => c.type === FileChangeType.Created);
    if (deleted.length === 0 || created.length === 0) return changes;
    const createdByHash = new Map<string, (typeof changes)[number]>();
    for (const change of created) {
      const read = await readCapturable(change.file);
      if (read.ok) createdByHash.set(this.captureFor(project).recorder.storedHash(read.text), change);
    }
    const moved = new Set<(typeof changes)[number]>();
    for (const change of deleted) {
      const target = createdByHash.get(project.snapshots.stat(change.path)!.hash);
      if (!target || moved.has(target)) continue;
      this.rename(project, change.path, target.path);
      moved.add(change).add(target);
    }
    return changes.filter((c) => !moved.has(c));
  }

  private async captureFromDisk(project: Project, relative: string, file: string, type: FileChangeType): Promise<void> {
    const { recorder } = this.captureFor(project);
    if (type === FileChangeType.Deleted) {
      const outcome = await recorder.record(relative, null, 'disk', { size: 0, mtimeMs: Date.now() });
      this.onDiskContent(project, relative, null);
      if (outcome.kind === 'recorded') this.onRecorded();
      return;
    }
    const read = await readCapturable(file);
    if (!read.ok) {
      if (read.reason !== 'missing') this.connection.console.info(`Not capturing ${relative}: ${read.detail}`);
      return;
    }
    const state = (await fileState(file)) ?? { size: read.bytes, mtimeMs: Date.now() };
    const outcome = await recorder.record(relative, read.text, 'disk', state, { isNew: type === FileChangeType.Created });
    this.onDiskContent(project, relative, read.text);
    if (outcome.kind === 'recorded') this.onRecorded();
  }

  /** A checkout or mass reformat: one summary memory listing the files, and fresh baselines for all. */
  private async captureBulk(project: Project, list: readonly { path: string; file: string; type: FileChangeType }[]): Promise<void> {
    const { recorder } = this.captureFor(project);
    for (const change of list) {
      const read = change.type === FileChangeType.Deleted ? null : await readCapturable(change.file);
      const state = read?.ok ? await fileState(change.file) : null;
      recorder.remember(change.path, read?.ok ? read.text : null, state ?? { size: read?.ok ? read.bytes : 0, mtimeMs: Date.now() });
      if (!read || read.ok) this.onDiskContent(project, change.path, read?.ok ? read.text : null);
    }
    const paths = list.map((c) => c.path).sort();
    const shown = paths.slice(0, BULK_LIST_LIMIT);
    project.store.add({
      kind: 'summary',
      title: `${paths.length} files changed on disk at once (checkout, pull or mass edit)`,
      body: [...shown, ...(paths.length > shown.length ? [`… and ${paths.length - shown.length} more`] : [])].join('\n'),
      source: 'disk',
      files: shown,
      importance: 0.3,
      meta: { bulk: true, count: paths.length },
    });
    this.onRecorded();
  }
}

/** Tries after a locked database, and the pause before each, so a writer holding it for a moment (a history import's transaction) costs no capture. */
const LOCKED_RETRY_PAUSES_MS = [50, 200, 800];

/**
 * `work` again after a pause when it met a database another process was writing: a snapshot
 * write reads first, and such a transaction fails at once then (SQLITE_BUSY, no waiting), which
 * keeps the server from stalling behind a long writer; the pause is taken on the event loop.
 * Capture writes its snapshot before anything else, and memory writes wait for the lock instead
 * (MemoryStore), so work that failed here had written nothing, or only what it writes again.
 */
async function retriedWhileLocked(work: () => Promise<void>): Promise<void> {
  for (const pause of LOCKED_RETRY_PAUSES_MS) {
    try {
      return await work();
    } catch (error) {
      if (!String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
  return work();
}


