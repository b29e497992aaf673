import type { Connection } from 'vscode-languageserver/node';
import type { Project } from '../project';
import type { BackgroundJob } from './backgroundJobs';

/** A background job that takes each open project in turn (backgroundJobs.ts runs it). */
export interface ProjectJob {
  readonly name: string;
  readonly firstMs: number;
  readonly everyMs: number;
  /** One project's turn; resolves to a line for the log when it did something. */
  readonly visit: (project: Project) => Promise<string | null>;
  /** The warning for a turn that failed (a locked or closed database); the next run tries again. */
  readonly failed: (project: Project, message: string) => string;
}

/** The job over `openProjects()`: one project's failure is logged, and the others still get their turn. */
export function projectJob(connection: Connection, openProjects: () => readonly Project[], job: ProjectJob): BackgroundJob {
  return {
    name: job.name,
    firstMs: job.firstMs,
    everyMs: job.everyMs,
    run: async () => {
      for (const project of openProjects()) {
        try {
          const done = await job.visit(project);
          if (done) connection.console.info(done);
        } catch (error) {
          connection.console.warn(job.failed(project, (error as Error).message));
        }
      }
    },
  };
}
