import type { Connection } from 'vscode-languageserver/node';
import type { Project } from '../project';
import { nextTurn } from './backgroundUpkeep';
import type { BackgroundJob } from './backgroundJobs';
import { projectJob } from './projectJob';

const FIRST_CHECK_MS = 10_000;
const CHECK_EVERY_MS = 60_000;

/**
 * Keeps each project's term counts (store/termStats.ts) current: now and then, a store that
 * changed by a tenth since its last count is counted again, in slices between which the server
 * goes on answering hovers. One count at a time.
 */
export function termStatsJob(connection: Connection, openProjects: () => readonly Project[]): BackgroundJob {
  return projectJob(connection, openProjects, {
    name: 'full-text term counts',
    firstMs: FIRST_CHECK_MS,
    everyMs: CHECK_EVERY_MS,
    visit: async (project) => {
      const stats = project.store.termStats;
      if (!stats.isStale()) return null;
      const start = Date.now();
      await stats.recountInSlices(nextTurn);
      return `Counted the full-text terms of ${project.root} in ${Date.now() - start} ms.`;
    },
    // A closed or locked database: recall goes on with the old counts, or ranks every term.
    failed: (_project, message) => `Counting full-text terms failed: ${message}`,
  });
}
