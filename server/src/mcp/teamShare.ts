import { z } from 'zod';
import type { Memory } from '../memory/types';
import type { Project } from '../project';
import { applyTeamFile } from '../team/applyTeamFile';
import { publishIfShared, shareMemory, TeamFileError } from '../team/shareMemory';
import { ToolInputError } from './toolResult';

/** The `shared` argument of remember and pin. */
export const sharedArg = z
  .boolean()
  .optional()
  .describe('true: also share it with the team, in the project file .engram/memories.jsonl that the user reviews and commits. Only when the user asked for it to be shared');

/**
 * After remember or pin: shares the memory when asked, and a memory shared already gets its
 * change into the team file (its pin is the team's). The local change stands either way.
 */
export function shareAfter(project: Project, memory: Memory, shared: boolean | undefined): Memory {
  try {
    if (shared) {
      applyTeamFile(project);
      return shareMemory(project, memory.id).memory;
    }
    return publishIfShared(project, memory.id)?.memory ?? memory;
  } catch (error) {
    if (error instanceof TeamFileError) throw new ToolInputError(`${memory.id} is stored for this user, not in the team file: ${error.message}`);
    throw error;
  }
}
