import type { Memory } from '../memory/types';
import type { TeamWrite } from './teamWrite';

/** A one-memory action's outcome: the memory as it is now, whether the action changed it, and the team file's part. */
export interface ActionResult {
  readonly memory: Memory;
  readonly changed: boolean;
  readonly team: TeamWrite;
}

/** The memory after the team file got it (its team mark records the line), else as the action left it. */
export function withTeamWrite(memory: Memory, changed: boolean, team: TeamWrite): ActionResult {
  return { memory: team.kind === 'written' ? team.memory : memory, changed, team };
}
