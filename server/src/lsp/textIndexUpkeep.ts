import type { Connection } from 'vscode-languageserver/node';
import type { Project } from '../project';
import type { BackgroundJob } from './backgroundJobs';

const FIRST_CHECK_MS = 5_000;
const CHECK_EVERY_MS = 30_000;

/**
 * Builds each open project's in-memory full-text index (store/textIndex/) in a process of its
 * own while the server goes on answering, once after it opens and again when a large change (an
 * import, archiving thousands) made it drop the index. Until then recall asks FTS5. One at a time.
 */
export function textIndexJob(connection: Connection, openProjects: () => readonly Project[]): BackgroundJob {
  return {
    name: 'in-memory text index',
    firstMs: FIRST_CHECK_MS,
    everyMs: CHECK_EVERY_MS,
    run: async () => {
    try {
      for (const project of openProjects()) {
        const state = project.store.reads.textIndexState;
        // A store too large for the index is looked at again now and then: it may have shrunk.
        if (state === 'building' || state === 'ready') continue;
        const start = Date.now();
        const rows = await project.store.reads.buildTextIndexElsewhere(project.databaseFile);
        if (rows) connection.console.info(`Indexed the text of ${rows} memories in memory in ${Date.now() - start} ms (${project.root}).`);
      }
    } catch (error) {
      // A closed or locked database: recall goes on asking FTS5, and the next check tries again.
      connection.console.warn(`Building the in-memory text index failed (recall uses SQLite's): ${(error as Error).message}`);
    }
    },
  };
}
