import type { Project } from '../project';
import type { BackgroundJob } from './backgroundJobs';

const CHECK_MS = 1000;

/**
 * One look a second at each open project for changed memories, for two listeners: a commit by
 * another process (a hook, the CLI, an MCP server: SQLite's data_version) refreshes CodeLens and
 * the status bar (`onOtherWriter`); any change, this server's included (the timeline's stamp),
 * tells the memory views to refetch (`onViewsStale`), for projects a view has asked about.
 */
export class MemoryChangeWatch {
  private readonly versions = new Map<string, number>();
  private readonly viewStamps = new Map<string, string>();

  constructor(
    private readonly projects: () => readonly Project[],
    private readonly onOtherWriter: () => void,
    private readonly onViewsStale: (project: Project) => void,
    private readonly log: (message: string) => void,
  ) {}

  /** A project just opened: its writes from now on are noticed, none before. */
  opened(project: Project): void {
    this.versions.set(project.root, project.store.dataVersion());
  }

  job(): BackgroundJob {
    return { name: 'memory changes', firstMs: CHECK_MS, everyMs: CHECK_MS, run: () => this.check() };
  }

  /** A project a view asked about is watched from then on, so a write right after is not missed. */
  watchForViews(project: Project): Project {
    if (!this.viewStamps.has(project.root)) this.viewStamps.set(project.root, stampOf(project));
    return project;
  }

  /** A view's action changed memories: tell the views now, and do not tell them again at the next look. */
  announce(project: Project): void {
    this.viewStamps.set(project.root, stampOf(project));
    this.onViewsStale(project);
  }

  check(): void {
    let otherWriter = false;
    for (const project of this.projects()) {
      try {
        const version = project.store.dataVersion();
        if (this.versions.get(project.root) !== version) otherWriter = true;
        this.versions.set(project.root, version);
        const seen = this.viewStamps.get(project.root);
        if (seen === undefined) continue;
        const stamp = stampOf(project);
        this.viewStamps.set(project.root, stamp);
        if (seen !== stamp) this.onViewsStale(project);
      } catch (error) {
        this.log(`Checking ${project.databaseFile} for changes failed: ${(error as Error).message}`);
      }
    }
    if (otherWriter) this.onOtherWriter();
  }
}

/** Writes by this server move the timeline's stamp; other processes' commits move data_version. */
function stampOf(project: Project): string {
  return `${project.timeline.changeStamp()}:${project.store.dataVersion()}`;
}
