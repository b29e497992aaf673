import type { Memory } from '../memory/types';
import type { Project } from '../project';
import { publishIfShared, TeamFileError } from '../team/shareMemory';

/**
 * What a change to a shared memory did to the team file. The local change is committed first and
 * stands either way: a team file Engram cannot rewrite without losing a line (a conflict, a line
 * it cannot read) leaves the change the user's own until the file is fixed.
 */
export type TeamWrite =
  | { readonly kind: 'none' }
  | { readonly kind: 'written'; readonly memory: Memory; readonly file: string }
  | { readonly kind: 'refused'; readonly problem: string };

export const NO_TEAM_WRITE: TeamWrite = { kind: 'none' };

/** After a pin or an edit: a shared memory's pin and text are the team's, so its line gets the change for review. */
export function publishChange(project: Pick<Project, 'root' | 'store' | 'redactor' | 'transaction'>, id: string): TeamWrite {
  try {
    const shared = publishIfShared(project, id);
    return shared ? { kind: 'written', memory: shared.memory, file: shared.file } : NO_TEAM_WRITE;
  } catch (error) {
    if (error instanceof TeamFileError) return { kind: 'refused', problem: error.message };
    throw error;
  }
}
