import { stat } from 'node:fs/promises';
import type { Connection } from 'vscode-languageserver/node';
import type { Project } from '../project';
import { ingestTranscript, newTurn, type Turn } from '../transcripts/ingestTranscript';
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
  /** The turn in progress, carried from one read of the file to the next. */
  readonly turn: Turn;
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
      for (const file of await findTranscripts(project.root, this.env)) {
        if (!this.followed.has(file.path)) this.followed.set(file.path, { project, file, turn: newTurn(), size: -1, mtimeMs: -1 });
      }
    }
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
      const result = await ingestTranscript(entry.project, this.capture.recorderFor(entry.project), entry.file.path, entry.file.sessionId, entry.turn);
      if (result.malformed) this.connection.console.warn(`${entry.file.path}: skipped ${result.malformed} malformed lines.`);
      if (result.memories) {
        this.connection.console.info(`Ingested ${result.memories} memories from ${entry.file.path}.`);
        this.onIngested();
      }
    });
  }
}
