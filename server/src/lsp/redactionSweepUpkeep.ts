import type { Connection } from 'vscode-languageserver/node';
import type { Project } from '../project';
import { nextTurn } from './backgroundUpkeep';
import type { BackgroundJob } from './backgroundJobs';

const FIRST_CHECK_MS = 2_000;
const CHECK_EVERY_MS = 60_000;

/**
 * Sweeps each open project whose stored texts older redaction rules checked (store/redactionSweep.ts),
 * in steps between which the server goes on answering hovers and hooks. Soon after a project
 * opens, since until then its store may hold secrets the current rules know; one sweep at a time.
 */
export function redactionSweepJob(connection: Connection, openProjects: () => readonly Project[]): BackgroundJob {
  return {
    name: 'redaction sweep',
    firstMs: FIRST_CHECK_MS,
    everyMs: CHECK_EVERY_MS,
    run: async () => {
    for (const project of openProjects()) {
      try {
        if (!project.redactionSweep.pending()) continue;
        const start = Date.now();
        const outcome = await project.redactionSweep.runInSlices(nextTurn);
        if (!outcome) continue;
        const removed = outcome.removedBackup ? `; removed the backup taken before it, which held them (${outcome.removedBackup})` : '';
        connection.console.info(
          `Checked the stored texts of ${project.root} against redaction rules ${project.redactionSweep.identity} in ${Date.now() - start} ms: ${outcome.rewritten} rewritten${removed}.`,
        );
      } catch (error) {
        // A locked or closed database: the sweep kept its progress, and the next check goes on from there.
        connection.console.warn(`Sweeping ${project.root} for secrets newer redaction rules know failed: ${(error as Error).message}`);
      }
    }
    },
  };
}
