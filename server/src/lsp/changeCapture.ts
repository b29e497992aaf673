import path from 'node:path';
import { FileChangeType, type Connection, type TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CaptureFilter } from '../capture/captureFilter';
import { DiskChangeCapture, type DiskChange } from '../capture/diskChanges';
import { checkCapturableText, readCapturable } from '../capture/readCapturable';
import { ChangeRecorder, fileState, type CaptureSettings } from '../capture/recordChange';
import type { Project } from '../project';
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
/**
 * An opened file's last known content is parsed this long after it opens: not before the hovers
 * and CodeLenses that come as it opens (a first parse loads tree-sitter, ~100–300 ms).
 */
const OPENED_PARSE_DELAY_MS = 1500;

interface ProjectCapture {
  readonly recorder: ChangeRecorder;
  readonly filter: CaptureFilter;
  readonly disk: DiskChangeCapture;
}

const KIND_OF: Readonly<Record<FileChangeType, DiskChange['kind']>> = {
  [FileChangeType.Created]: 'created',
  [FileChangeType.Changed]: 'changed',
  [FileChangeType.Deleted]: 'deleted',
};

/**
 * Captures changes to the code as diff memories: editor saves (LSP didSave), files changed on disk
 * by other programs (workspace/didChangeWatchedFiles) and, at start, files changed while VS Code
 * was closed (what becomes of those: capture/diskChanges.ts). Work is serialized on one queue so
 * two events for one file never interleave.
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
    documents.onDidOpen((event) => {
      const uri = event.document.uri;
      this.enqueue(`opening ${uri}`, () => this.baselineOpenedFile(uri));
      setTimeout(() => this.enqueue(`parsing ${uri}`, () => this.parseOpenedFile(uri)), OPENED_PARSE_DELAY_MS).unref();
    });
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
  syncWithDisk(afterMs = 0): void {
    for (const project of this.projects.openProjects()) {
      // Queued now, run later: whatever else is queued meanwhile (an opened file's baseline) comes
      // after it, so the first scan still finds no snapshot and takes every file as a baseline.
      this.enqueue(`scanning ${project.root}`, async () => {
        await new Promise((resolve) => setTimeout(resolve, afterMs));
        await this.captureFor(project).disk.syncAtStart();
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
      const warn = (message: string) => this.connection.console.warn(message);
      const recorder = new ChangeRecorder(project, this.settings, warn);
      const filter = new CaptureFilter(project.root, { exclude: this.settings.exclude, onWarning: warn });
      const disk = new DiskChangeCapture(project, recorder, filter, this.settings.bulkThreshold, {
        info: (message) => this.connection.console.info(message),
        warn,
        recorded: () => this.onRecorded(),
        content: (path, text) => this.onDiskContent(project, path, text),
      });
      capture = { recorder, filter, disk };
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

  /** On open: a file never seen before becomes a baseline. */
  private async baselineOpenedFile(uri: string): Promise<void> {
    const target = this.target(uri);
    if (!target || target.project.snapshots.stat(target.path)) return;
    const read = await readCapturable(target.file);
    const state = await fileState(target.file);
    if (read.ok && state) target.capture.recorder.baseline(target.path, read.text, state);
  }

  /** Soon after open: the last known content is parsed, so the first save of even a large file only reparses what changed. */
  private async parseOpenedFile(uri: string): Promise<void> {
    const target = this.target(uri);
    if (!target) return;
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
    const perProject = new Map<Project, DiskChange[]>();
    for (const [uri, type] of changes) {
      const target = this.target(uri);
      if (!target) continue;
      const list = perProject.get(target.project) ?? [];
      list.push({ path: target.path, file: target.file, kind: KIND_OF[type] });
      perProject.set(target.project, list);
    }
    for (const [project, list] of perProject) await this.captureFor(project).disk.capture(list);
  }

  /** Renames done in VS Code (files or folders): memories and snapshots follow the new path. */
  private async followRenames(files: readonly { oldUri: string; newUri: string }[]): Promise<void> {
    for (const { oldUri, newUri } of files) {
      const from = this.projects.fileFor(oldUri);
      const to = this.projects.fileFor(newUri);
      if (!from || !to || from.project !== to.project) continue;
      this.captureFor(from.project).disk.rename(from.path, to.path);
    }
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


