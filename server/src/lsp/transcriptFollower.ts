import { stat } from 'node:fs/promises';
import type { Connection } from 'vscode-languageserver/node';
import type { Project } from '../project';
import { ingestTranscript } from '../transcripts/ingestTranscript';
import { syncClaudeMemoryFiles } from '../transcripts/claudeMemoryFiles';
import { findTranscripts, type TranscriptFile } from '../transcripts/transcriptFiles';
import type { ChangeCapture } from './changeCapture';
import type { ProjectRegistry } from './projectRegistry';

/** Known transcripts are checked this often (a stat each): appends are ingested within about this long. */
const CHECK_MS = 500;
/** New sessions are looked for this often. */
const DISCOVER_MS = 5000;

interface Followed {
  readonly project: Project;
  readonly file: TranscriptFile;
  size: number;
  mtimeMs: number;
}

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
  private timer: NodeJS.Timeout | undefined;
  private lastDiscovery = 0;
  private busy = false;

  constructor(
    private readonly connection: Connection,
    private readonly projects: ProjectRegistry,
    private readonly capture: ChangeCapture,
    private readonly onIngested: () => void,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), CHECK_MS);
    this.timer.unref();
    void this.tick();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      if (Date.now() - this.lastDiscovery >= DISCOVER_MS) {
        this.lastDiscovery = Date.now();
        await this.discover();
      }
      for (const entry of this.followed.values()) await this.check(entry);
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
        if (!this.followed.has(file.path)) this.followed.set(file.path, { project, file, size: -1, mtimeMs: -1 });
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

  private async check(entry: Followed): Promise<void> {
    let info;
    try {
      info = await stat(entry.file.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.followed.delete(entry.file.path);
      return;
    }
    if (info.size === entry.size && info.mtimeMs === entry.mtimeMs) return;
    entry.size = info.size;
    entry.mtimeMs = info.mtimeMs;
    await this.capture.serialize(`ingesting ${entry.file.path}`, async () => {
      const result = await ingestTranscript(entry.project, this.capture.recorderFor(entry.project), entry.file);
      if (result.malformed) this.connection.console.warn(`${entry.file.path}: skipped ${result.malformed} malformed lines.`);
      if (result.memories) {
        this.connection.console.info(`Ingested ${result.memories} memories from ${entry.file.path}.`);
        this.onIngested();
      }
    });
  }
}
