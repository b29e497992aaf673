import type { Connection } from 'vscode-languageserver/node';
import type { Project } from '../project';
import { nextTurn } from './backgroundUpkeep';
import type { BackgroundJob } from './backgroundJobs';
import { projectJob } from './projectJob';

const FIRST_CHECK_MS = 1_500;
const CHECK_EVERY_MS = 1_000;

/**
 * Keeps each open project's CodeLens listing states (store/listingStates.ts) current: built in
 * slices after the project opens (~40 ms each at 1,000,000 memories, the server answering
 * between them), then brought up to date after writes, so a CodeLens after a change reads no
 * memory rows. Until they are built, a CodeLens reads the states of its file's memories itself.
 */
export function listingStatesJob(connection: Connection, openProjects: () => readonly Project[]): BackgroundJob {
  return projectJob(connection, openProjects, {
    name: 'CodeLens listing states',
    firstMs: FIRST_CHECK_MS,
    everyMs: CHECK_EVERY_MS,
    visit: async (project) => {
      const start = Date.now();
      let step = project.store.advanceListingStates();
      // Asked again after each pause: the project may have closed or begun an import meanwhile.
      while (step === 'building' && openProjects().includes(project)) {
        await nextTurn();
        step = project.store.advanceListingStates();
      }
      return step === 'built' ? `Read the states of ${project.root}'s memories for CodeLens in ${Date.now() - start} ms.` : null;
    },
    failed: (_project, message) => `Reading the states of memories for CodeLens failed (each CodeLens reads its file's): ${message}`,
  });
}
