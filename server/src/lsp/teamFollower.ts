import type { Connection } from 'vscode-languageserver/node';
import type { Project } from '../project';
import { applyTeamFile, type TeamSyncReport } from '../team/applyTeamFile';
import { TEAM_FILE, teamFileStamp } from '../team/teamFile';
import type { ProjectRegistry } from './projectRegistry';
import type { BackgroundJob } from './backgroundJobs';

/** How often the team file is looked at (one stat per project): a pull shows within about this long. */
const CHECK_MS = 1000;

/** One line for the status bar: what is wrong with a project's team file and where to look. */
export function teamProblemMessage(root: string, report: TeamSyncReport): string | null {
  if (!report.problems.length) return null;
  const first = report.problems[0]!;
  const count = report.problems.length === 1 ? 'a problem' : `${report.problems.length} problems`;
  return `Team memory: ${TEAM_FILE} in ${root} has ${count} (line ${first.lineNumber}: ${first.message}); every good line applies. \`engram team status\` lists them.`;
}

/**
 * Keeps each open project's store in line with its team file (docs/team.md): at start and
 * whenever the file changes (a checkout, pull, merge or rebase, or a share from any Engram
 * process). A stat a second finds the change; applying it is one transaction and idempotent.
 */
export class TeamFollower {
  private readonly stamps = new Map<string, string>();
  private readonly problems = new Map<string, string>();
  /** The stamp of a file whose apply failed (said once, tried again every check). */
  private readonly failed = new Map<string, string>();

  constructor(
    private readonly connection: Connection,
    private readonly projects: ProjectRegistry,
    private readonly onApplied: (project: Project) => void,
  ) {}

  /** Its periodic work, for the server's table of jobs (backgroundJobs.ts): at once, then every CHECK_MS. */
  job(): BackgroundJob {
    return { name: 'team file', firstMs: 0, everyMs: CHECK_MS, run: () => this.check() };
  }

  /** Problems of the open projects' team files, for the status bar (empty: none). */
  problemMessages(): string[] {
    return [...this.problems.values()];
  }

  /** Looks at every open project now (also after this server shared or unshared a memory). */
  check(): void {
    for (const project of this.projects.openProjects()) {
      let stamp: string | undefined;
      try {
        stamp = teamFileStamp(project.root);
        if (this.stamps.get(project.root) === stamp) continue;
        this.apply(project);
        // Only once applied: a file whose apply failed (a locked database) is applied at the next check.
        this.stamps.set(project.root, stamp);
        this.failed.delete(project.root);
      } catch (error) {
        if (stamp !== undefined && this.failed.get(project.root) === stamp) continue;
        if (stamp !== undefined) this.failed.set(project.root, stamp);
        this.connection.console.error(`Reading the team memory of ${project.root} failed: ${(error as Error).stack ?? String(error)}`);
      }
    }
  }

  private apply(project: Project): void {
    const report = applyTeamFile(project);
    const problem = teamProblemMessage(project.root, report);
    const hadProblem = this.problems.has(project.root);
    if (problem) {
      this.problems.set(project.root, problem);
      this.connection.console.warn(problem);
      for (const p of report.problems) this.connection.console.warn(`${TEAM_FILE}:${p.lineNumber}: ${p.message}`);
    } else this.problems.delete(project.root);
    const changed = report.added + report.updated + report.removed;
    if (changed) this.connection.console.info(`Team memory of ${project.root}: ${report.added} added, ${report.updated} changed, ${report.removed} removed.`);
    if (changed || problem || hadProblem) this.onApplied(project);
  }
}
