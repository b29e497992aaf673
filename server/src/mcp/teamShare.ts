import { z } from 'zod';
import type { ActionResult } from '../actions/actionResult';
import { shareMemoryWithTeam } from '../actions/share';
import type { Memory } from '../memory/types';
import type { Project } from '../project';
import { publishIfShared, TeamFileError } from '../team/shareMemory';
import { ToolInputError } from './toolResult';

/** The `shared` argument of remember and pin. */
export const sharedArg = z
  .boolean()
  .optional()
  .describe('true: also share it with the team, in the project file .engram/memories.jsonl that the user reviews and commits. Only when the user asked for it to be shared');

function notInTeamFile(id: string, problem: string): never {
  throw new ToolInputError(`${id} is stored for this user, not in the team file: ${problem}`);
}

function shared(project: Project, memory: Memory): Memory {
  try {
    return shareMemoryWithTeam(project, memory.id).memory;
  } catch (error) {
    if (error instanceof TeamFileError) notInTeamFile(memory.id, error.message);
    throw error;
  }
}

/**
 * After remember: shares the memory when asked, and a memory shared already gets its change into
 * the team file (its pin is the team's). The local change stands either way.
 */
export function shareAfter(project: Project, memory: Memory, share: boolean | undefined): Memory {
  if (share) return shared(project, memory);
  try {
    return publishIfShared(project, memory.id)?.memory ?? memory;
  } catch (error) {
    if (error instanceof TeamFileError) notInTeamFile(memory.id, error.message);
    throw error;
  }
}

/** After pin or unpin (which wrote a shared memory's change already): shares it when asked, says when the team file refused. */
export function sharedAfterAction(project: Project, result: ActionResult, share: boolean | undefined): Memory {
  if (share) return shared(project, result.memory);
  if (result.team.kind === 'refused') notInTeamFile(result.memory.id, result.team.problem);
  return result.memory;
}
