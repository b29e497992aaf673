import { stat } from 'node:fs/promises';
import type { Connection } from 'vscode-languageserver/node';
import type { Project } from '../project';
import { BackfillProgressNotification } from '../../../contracts/protocol';
import { ingestTranscript } from '../transcripts/ingestTranscript';
import { syncClaudeMemoryFiles } from '../transcripts/claudeMemoryFiles';
import { findTranscripts, type TranscriptFile } from '../transcripts/transcriptFiles';
import type { ChangeCapture } from './changeCapture';
import type { ProjectRegistry } from './projectRegistry';
import type { BackgroundJob } from './backgroundJobs';

/** Known transcripts are checked this often (a stat each): appends are ingested within about this long. */
const CHECK_MS = 500;
/** New sessions are looked for this often. */
const DISCOVER_MS = 5000;

interface Followed {
  readonly project: Project;
  readonly file: TranscriptFile;
  size: number;
  mtimeMs: number;
  /** Not read since it was found: read in a backfill, which may show progress and be cancelled. */
  fresh: boolean;
  /** Left unread by a cancelled backfill until the user resumes (or the next start). */
  paused: boolean;
}

/** A backfill with at least this much unread transcript shows a progress notification. */
const BACKFILL_NOTIFY_BYTES = 1024 * 1024;

/**
 * Follows the Claude Code transcripts of the open projects: everything not yet read at start (a
 * backfill that resumes where the last one stopped), then each append as it happens. Polling a
 * handful of files is cheap, and works the same on every platform and file system.
 */
export class TranscriptFollower {
  private readonly followed = new Map<string, Followed>();
  /** Per project, the size and mtime of each Claude memory file when last read. */
  private readonly memoryFilesSeen = new Map<string, Map<string, string>>();
  private readonly reportedProblems = new Set<string>();
  private lastDiscovery = 0;
  private busy = false;
  private backfills = 0;
  private cancelledBackfill: string | null = null;

  constructor(
    private readonly connection: Connection,
    private readonly projects: ProjectRegistry,
    private readonly capture: ChangeCapture,
    private readonly onIngested: () => void,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** Its periodic work, for the server's table of jobs (backgroundJobs.ts): at once, then every CHECK_MS. */
  job(): BackgroundJob {
    return { name: 'transcripts', firstMs: 0, everyMs: CHECK_MS, run: () => this.tick() };
  }

  /** Stops the running backfill after the file being read; the files it did not reach are paused. */
  cancelBackfill(id: string): void {
    this.cancelledBackfill = id;
  }

  /** Reads what a cancelled backfill left unread, at the next check. */
  resumeBackfill(): void {
    for (const entry of this.followed.values()) entry.paused = false;
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      if (Date.now() - this.lastDiscovery >= DISCOVER_MS) {
        this.lastDiscovery = Date.now();
        await this.discover();
      }
      const fresh = [...this.followed.values()].filter((e) => e.fresh && !e.paused);
      if (fresh.length) await this.backfill(fresh);
      for (const entry of this.followed.values()) if (!entry.fresh && !entry.paused) await this.check(entry);
    } catch (error) {
      this.connection.console.error(`Following Claude Code transcripts failed: ${(error as Error).stack ?? String(error)}`);
    } finally {
      this.busy = false;
    }
  }

  private async discover(): Promise<void> {
    for (const project of this.projects.openProjects()) {
      await this.syncMemoryFiles(project);
      for (const file of await findTranscripts(project.root, this.env)) {
        if (!this.followed.has(file.path)) this.followed.set(file.path, { project, file, size: -1, mtimeMs: -1, fresh: true, paused: false });
      }
    }
  }

  /** Claude Code's own memory folder, kept in sync as facts. */
  private async syncMemoryFiles(project: Project): Promise<void> {
    let seen = this.memoryFilesSeen.get(project.root);
    if (!seen) this.memoryFilesSeen.set(project.root, (seen = new Map()));
    await this.capture.serialize('syncing Claude Code memory files', async () => {
      const result = await syncClaudeMemoryFiles(project, this.env, seen);
      for (const problem of result.problems) {
        if (this.reportedProblems.has(problem)) continue;
        this.reportedProblems.add(problem);
        this.connection.console.warn(`Skipped a Claude Code memory file: ${problem}`);
      }
      if (result.added + result.updated + result.removed) {
        this.connection.console.info(`Claude Code memory files: ${result.added} added, ${result.updated} updated, ${result.removed} removed.`);
        this.onIngested();
      }
    });
  }

  /** How much of a transcript has not been read yet, in bytes. */
  private async unreadBytes(entry: Followed): Promise<number> {
    try {
      const size = (await stat(entry.file.path)).size;
      return Math.max(0, size - (entry.project.ingestOffsets.get(entry.file.path)?.byteOffset ?? 0));
    } catch {
      return 0;
    }
  }

  /**
   * Reads newly found transcripts: at start, the sessions that ran while the server was not
   * running. Enough of them to take a while shows a cancellable progress notification; a
   * cancelled backfill resumes at the next start (offsets are stored per file) or on request.
   */
  private async backfill(entries: Followed[]): Promise<void> {
    const sized = await Promise.all(entries.map(async (entry) => ({ entry, bytes: await this.unreadBytes(entry) })));
    const bytes = sized.reduce((sum, s) => sum + s.bytes, 0);
    const visible = bytes >= BACKFILL_NOTIFY_BYTES;
    const id = `backfill-${++this.backfills}`;
    const files = sized.filter((s) => s.bytes > 0).length;
    if (visible) await this.connection.sendNotification(BackfillProgressNotification.type, { state: 'begin', id, files, bytes });
    let doneBytes = 0;
    let doneFiles = 0;
    let memories = 0;
    for (const { entry, bytes: size } of sized) {
      if (this.cancelledBackfill === id) {
        entry.paused = true;
        continue;
      }
      memories += await this.check(entry);
      entry.fresh = false;
      if (size === 0) continue;
      doneBytes += size;
      doneFiles++;
      if (visible) await this.connection.sendNotification(BackfillProgressNotification.type, { state: 'report', id, doneFiles, doneBytes, files, bytes });
    }
    const cancelled = this.cancelledBackfill === id;
    if (cancelled) this.connection.console.info(`Reading earlier Claude Code sessions was cancelled after ${doneFiles} of ${files}; the rest is read at the next start or on resume.`);
    if (visible) await this.connection.sendNotification(BackfillProgressNotification.type, { state: 'end', id, cancelled, memories });
  }

  /** Ingests what is new in a transcript; returns how many memories that made. */
  private async check(entry: Followed): Promise<number> {
    let info;
    try {
      info = await stat(entry.file.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.followed.delete(entry.file.path);
      return 0;
    }
    if (info.size === entry.size && info.mtimeMs === entry.mtimeMs) return 0;
    entry.size = info.size;
    entry.mtimeMs = info.mtimeMs;
    let memories = 0;
    await this.capture.serialize(`ingesting ${entry.file.path}`, async () => {
      const result = await ingestTranscript(entry.project, this.capture.recorderFor(entry.project), entry.file);
      if (result.malformed) this.connection.console.warn(`${entry.file.path}: skipped ${result.malformed} malformed lines.`);
      memories = result.memories;
      if (result.memories) {
        this.connection.console.info(`Ingested ${result.memories} memories from ${entry.file.path}.`);
        this.onIngested();
      }
    });
    return memories;
  }
}
