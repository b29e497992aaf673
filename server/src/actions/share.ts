import type { Memory } from '../memory/types';
import type { Project } from '../project';
import { applyTeamFile } from '../team/applyTeamFile';
import { shareMemory, unshareMemory } from '../team/shareMemory';
import { TEAM_FILE } from '../team/teamFile';
import { isShared, teamMarkOf, type TeamId } from '../team/teamMark';
import { ActionRefusal, UnknownMemoryError } from './errors';

export interface ShareResult {
  readonly memory: Memory;
  readonly changed: boolean;
  /** Its id in the team file; null when it is not (or was not) there. */
  readonly teamId: TeamId | null;
  /** Project-relative: `.engram/memories.jsonl`. */
  readonly file: string;
}

type ShareProject = Pick<Project, 'root' | 'store' | 'redactor' | 'transaction' | 'team'>;

function existing(project: ShareProject, id: string): Memory {
  const memory = project.store.get(id);
  if (!memory) throw new UnknownMemoryError([id]);
  return memory;
}

/**
 * Shares a memory with the team: its redacted record goes into the team file, and the store and
 * the file change together or not at all (TeamFileError when the file cannot be rewritten without
 * losing a line). Only active memories: a forgotten one was put away as wrong, and teammates'
 * agents would be given it. One already in the file gets its line written again (changed only
 * when the line differs); one received from the team hub is the team's already and is left alone.
 * Sharing is not counted as using the memory.
 */
export function shareMemoryWithTeam(project: ShareProject, id: string): ShareResult {
  const before = existing(project, id);
  if (before.status !== 'active') throw new ActionRefusal(`${id} is ${before.status}; restore it first, then share it`);
  const mark = teamMarkOf(before);
  const inFile = mark !== null && !mark.gone;
  if (!inFile && isShared(before)) return { memory: before, changed: false, teamId: null, file: TEAM_FILE };
  // The file as it is now first, so a teammate's change pulled meanwhile is not written over.
  applyTeamFile(project);
  const shared = shareMemory(project, id);
  return { memory: shared.memory, changed: !inFile || teamMarkOf(shared.memory)?.line !== mark.line, teamId: shared.teamId, file: shared.file };
}

/** Takes a memory out of the team file; it stays in this store as the user's own. Unchanged when it was not in the file. */
export function unshareMemoryFromTeam(project: ShareProject, id: string): ShareResult {
  const before = existing(project, id);
  applyTeamFile(project);
  const unshared = unshareMemory(project, id);
  return unshared ? { memory: unshared.memory, changed: true, teamId: unshared.teamId, file: unshared.file } : { memory: before, changed: false, teamId: null, file: TEAM_FILE };
}
