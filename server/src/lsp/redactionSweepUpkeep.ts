import type { Connection } from 'vscode-languageserver/node';
import type { Project } from '../project';
import { nextTurn } from './backgroundUpkeep';
import type { BackgroundJob } from './backgroundJobs';
import { projectJob } from './projectJob';

const FIRST_CHECK_MS = 2_000;
const CHECK_EVERY_MS = 60_000;

/**
 * Sweeps each open project whose stored texts older redaction rules checked (store/redactionSweep.ts),
 * in steps between which the server goes on answering hovers and hooks. Soon after a project
 * opens, since until then its store may hold secrets the current rules know; one sweep at a time.
 */
export function redactionSweepJob(connection: Connection, openProjects: () => readonly Project[]): BackgroundJob {
  return projectJob(connection, openProjects, {
    name: 'redaction sweep',
    firstMs: FIRST_CHECK_MS,
    everyMs: CHECK_EVERY_MS,
    visit: async (project) => {
      if (!project.redactionSweep.pending()) return null;
      const start = Date.now();
      const outcome = await project.redactionSweep.runInSlices(nextTurn);
      if (!outcome) return null;
      const removed = outcome.removedBackup ? `; removed the backup taken before it, which held them (${outcome.removedBackup})` : '';
      return `Checked the stored texts of ${project.root} against redaction rules ${project.redactionSweep.identity} in ${Date.now() - start} ms: ${outcome.rewritten} rewritten${removed}.`;
    },
    // A locked or closed database: the sweep kept its progress, and the next check goes on from there.
    failed: (project, message) => `Sweeping ${project.root} for secrets newer redaction rules know failed: ${message}`,
  });
}
