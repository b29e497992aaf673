import type { Connection } from 'vscode-languageserver/node';
import { connectHub, type HubClient } from '../hub/hubConnection';
import { describeHubUrl, hubSettings, type HubSettings } from '../hub/hubSettings';
import { hubProjectOf } from '../hub/projectIdentity';
import { syncProject } from '../hub/syncProject';
import type { Project } from '../project';
import type { ProjectRegistry } from './projectRegistry';
import type { HubSearchAccess } from './timelineTeamSearch';
import type { BackgroundJob } from './backgroundJobs';

/** How often open projects sync with the hub: a teammate's change shows within about two of these. */
const SYNC_EVERY_MS = 1000;
/** After a failure the next try waits twice as long as the last, up to this. */
const MAX_BACKOFF_MS = 60_000;

/**
 * Syncs each open project with the team hub in the background (docs/team.md): push the outbox,
 * pull the team's changes, every second. A hub that is down, slow or refusing changes nothing
 * local: the outbox keeps every change, the error is recorded, the status bar says
 * "team: offline" and the next try backs off (1, 2, 4 … 60 s), then resumes where it stopped.
 */
export class HubFollower {
  private readonly settings: HubSettings | null;
  private readonly env: NodeJS.ProcessEnv;
  private readonly hubProjects = new Map<string, string | null>();
  private client: HubClient | null = null;
  private busy = false;
  private failures = 0;
  private retryAt = 0;
  private offlineMessage: string | null = null;

  constructor(
    private readonly connection: Connection,
    private readonly projects: ProjectRegistry,
    private readonly onChanged: (project: Project | null) => void,
    env: NodeJS.ProcessEnv = process.env,
    /** `engram.team.url` as VS Code gave it (config.json keeps it without a password). */
    configuredUrl?: string,
  ) {
    let settings: HubSettings | null = null;
    try {
      settings = hubSettings(env, configuredUrl);
    } catch (error) {
      connection.console.warn(`Team hub: ${(error as Error).message}; not syncing.`);
    }
    this.settings = settings;
    this.env = env;
  }

  /** Its periodic work, for the server's table of jobs (backgroundJobs.ts); null without a hub. */
  job(): BackgroundJob | null {
    if (!this.settings) return null;
    this.connection.console.info(`Team hub: syncing with ${describeHubUrl(this.settings.url)}${this.settings.syncAll ? ' (syncAll)' : ''}.`);
    return { name: 'team hub sync', firstMs: 0, everyMs: SYNC_EVERY_MS, run: () => this.tick() };
  }

  async stop(): Promise<void> {
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }

  /** For the status bar: null without a hub. */
  state(): 'online' | 'offline' | null {
    if (!this.settings) return null;
    return this.offlineMessage ? 'offline' : 'online';
  }

  offline(): string | null {
    return this.offlineMessage;
  }

  /**
   * What the timeline's team search connects with: this server's own settings (a password typed
   * into `engram.team.url` included, which config.json does not hold) and environment; null without a hub.
   */
  searchAccess(): HubSearchAccess | null {
    return this.settings ? { settings: this.settings, env: this.env } : null;
  }

  private async hubProject(project: Project): Promise<string | null> {
    if (this.hubProjects.has(project.root)) return this.hubProjects.get(project.root)!;
    try {
      const name = await hubProjectOf(project.root, this.env);
      this.hubProjects.set(project.root, name);
      return name;
    } catch (error) {
      // A project without a remote is not a team's: said once, not retried.
      this.connection.console.warn(`Team hub: not syncing ${project.root}: ${(error as Error).message}.`);
      this.hubProjects.set(project.root, null);
      return null;
    }
  }

  private async tick(): Promise<void> {
    if (this.busy || !this.settings || Date.now() < this.retryAt) return;
    this.busy = true;
    try {
      this.client ??= await connectHub(this.settings.url, { timeoutMs: 5000 });
      for (const project of this.projects.openProjects()) {
        const name = await this.hubProject(project);
        if (!name) continue;
        const report = await syncProject(project, this.client, this.settings.url, name, this.settings.syncAll);
        const changed = report.added + report.updated + report.removed;
        if (changed) this.connection.console.info(`Team hub: ${name}: ${report.added} added, ${report.updated} changed, ${report.removed} forgotten by the team.`);
        for (const problem of report.problems) this.connection.console.warn(`Team hub: ${problem}`);
        if (changed) this.onChanged(project);
      }
      if (this.offlineMessage) {
        this.connection.console.info('Team hub: back online; queued changes pushed.');
        this.offlineMessage = null;
        this.onChanged(null);
      }
      this.failures = 0;
    } catch (error) {
      this.failures++;
      const wait = Math.min(MAX_BACKOFF_MS, SYNC_EVERY_MS * 2 ** Math.min(this.failures - 1, 16));
      this.retryAt = Date.now() + wait;
      const message = (error as Error).message;
      if (message !== this.offlineMessage) this.connection.console.warn(`Team hub offline: ${message}; retrying in ${Math.round(wait / 1000)} s (local memory is unaffected).`);
      const wasOnline = this.offlineMessage === null;
      this.offlineMessage = message;
      await this.client?.end().catch(() => undefined);
      this.client = null;
      if (wasOnline) this.onChanged(null);
    } finally {
      this.busy = false;
    }
  }
}
