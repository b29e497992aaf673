import type { Connection } from 'vscode-languageserver/node';
import type { Project } from '../project';
import { nextTurn } from './backgroundUpkeep';
import type { BackgroundJob } from './backgroundJobs';
import { projectJob } from './projectJob';

const FIRST_CHECK_MS = 1_000;
const CHECK_EVERY_MS = 1_000;
/**
 * Sets dropped after a large change (an import) are built again for at most this long a run (a
 * set of a word in most of 1,000,000 memories takes ~100 ms of the server's thread), so requests
 * meanwhile are slowed by a tenth at most. The first sets, at start, are built in one run.
 */
const REBUILD_MS_PER_RUN = 100;

/**
 * In a store too large for the in-memory text index, builds the sets of the words the term counts
 * find in the most memories (store/termMatchSets.ts), once after the project opens and again for
 * those a large change dropped: one FTS5 query each, the server answering between them. Until a
 * word has its set, recall asks FTS5.
 */
export function termSetsJob(connection: Connection, openProjects: () => readonly Project[]): BackgroundJob {
  return projectJob(connection, openProjects, {
    name: 'full-text term sets',
    firstMs: FIRST_CHECK_MS,
    everyMs: CHECK_EVERY_MS,
    visit: async (project) => {
      const reads = project.store.reads;
      if (reads.textIndexState !== 'too large') {
        // A store that shrank back within the in-memory index's size: the sets would only hold memory.
        if (reads.textIndexState === 'ready') reads.dropTermSets();
        return null;
      }
      const queued = project.store.prefillTermSets();
      const start = Date.now();
      const until = queued ? Infinity : start + REBUILD_MS_PER_RUN;
      // Asked again after each pause: the project may have closed or begun an import meanwhile.
      while (Date.now() < until && openProjects().includes(project) && reads.buildPendingTermSet()) await nextTurn();
      return queued ? `Built the full-text sets of ${queued} widespread words in ${Date.now() - start} ms (${project.root}).` : null;
    },
    // A closed or locked database: recall asks FTS5, and the next run tries again.
    failed: (_project, message) => `Building full-text term sets failed (recall uses SQLite's search): ${message}`,
  });
}
