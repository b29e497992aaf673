import type { Connection } from 'vscode-languageserver/node';
import type { Project } from '../project';
import type { BackgroundJob } from './backgroundJobs';
import { projectJob } from './projectJob';

const FIRST_CHECK_MS = 5_000;
const CHECK_EVERY_MS = 30_000;

/**
 * Builds each open project's in-memory full-text index (store/textIndex/) in a process of its
 * own while the server goes on answering, once after it opens and again when a large change (an
 * import, archiving thousands) made it drop the index. Until then recall asks FTS5. One at a time.
 */
export function textIndexJob(connection: Connection, openProjects: () => readonly Project[]): BackgroundJob {
  return projectJob(connection, openProjects, {
    name: 'in-memory text index',
    firstMs: FIRST_CHECK_MS,
    everyMs: CHECK_EVERY_MS,
    visit: async (project) => {
      const state = project.store.reads.textIndexState;
      // A store too large for the index is looked at again now and then: it may have shrunk.
      if (state === 'building' || state === 'ready') return null;
      const start = Date.now();
      const rows = await project.store.reads.buildTextIndexElsewhere(project.databaseFile);
      return rows ? `Indexed the text of ${rows} memories in memory in ${Date.now() - start} ms (${project.root}).` : null;
    },
    // A closed or locked database: recall goes on asking FTS5, and the next check tries again.
    failed: (_project, message) => `Building the in-memory text index failed (recall uses SQLite's): ${message}`,
  });
}
