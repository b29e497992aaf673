import type { Memory } from '../memory/types';
import type { Project } from '../project';
import { teamSourceRef } from './applyTeamFile';
import { readTeamFileText, TEAM_FILE, writeTeamFileText } from './teamFile';
import { readTeamFile, renderTeamFile, type TeamFileContents } from './teamLayout';
import { newTeamId, teamMarkOf, withTeamMark, type TeamId } from './teamMark';
import { lineHash, teamLine, teamRecordOf, type TeamRecord } from './teamRecord';

/** Sharing cannot be done as asked; the message says what to do. */
export class TeamFileError extends Error {}

export interface Shared {
  readonly memory: Memory;
  readonly teamId: TeamId;
  /** Project-relative: `.engram/memories.jsonl`. */
  readonly file: string;
}

type TeamProject = Pick<Project, 'root' | 'store' | 'redactor' | 'transaction'>;

/** The file's records, or the reason it cannot be rewritten: a line Engram cannot read would be lost. */
function currentRecords(project: TeamProject): Map<TeamId, TeamRecord> {
  const text = readTeamFileText(project.root);
  const contents: TeamFileContents | null = text === null ? null : readTeamFile(text);
  if (contents?.problems.length) {
    const first = contents.problems[0]!;
    const more = contents.problems.length > 1 ? ` (and ${contents.problems.length - 1} more: \`engram team status\`)` : '';
    throw new TeamFileError(`${TEAM_FILE} line ${first.lineNumber}: ${first.message}${more}. Fix it first; Engram rewrites the file only when it can keep every line`);
  }
  return new Map([...(contents?.records ?? [])].map(([id, line]) => [id, line.record]));
}

function unknown(project: TeamProject, id: string): never {
  throw new TeamFileError(`no memory with id ${id} in ${project.root}`);
}

/**
 * Shares a memory with the team: its record, redacted, goes into the team file (created with its
 * README the first time) under a new team id, or its line is rewritten when it was shared already
 * (after a person's edit or pin). The store and the file change together or not at all.
 */
export function shareMemory(project: TeamProject, id: string): Shared {
  return project.transaction(() => {
    const memory = project.store.get(id) ?? unknown(project, id);
    const records = currentRecords(project);
    const mark = teamMarkOf(memory);
    const teamId = mark?.id ?? newTeamId();
    // Redacted again here: the user's patterns may have grown since the memory was stored.
    const record = teamRecordOf(project.redactor.memory(memory), teamId);
    records.set(teamId, record);
    const stored = project.store.update({ ...memory, meta: withTeamMark(memory.meta, { id: teamId, line: lineHash(teamLine(record)), ...(mark?.received ? { received: true } : {}) }) })!;
    writeTeamFileText(project.root, renderTeamFile([...records.values()]));
    return { memory: stored, teamId, file: TEAM_FILE };
  });
}

/** Takes a memory out of the team file; it stays in this store as the user's own. Null when it was not shared. */
export function unshareMemory(project: TeamProject, id: string): Shared | null {
  return project.transaction(() => {
    const memory = project.store.get(id) ?? unknown(project, id);
    const mark = teamMarkOf(memory);
    if (!mark) return null;
    const records = currentRecords(project);
    const sourceRef = memory.sourceRef === teamSourceRef(mark.id) ? null : memory.sourceRef;
    const stored = project.store.update({ ...memory, sourceRef, meta: withTeamMark(memory.meta, null) })!;
    if (records.delete(mark.id)) writeTeamFileText(project.root, renderTeamFile([...records.values()]));
    return { memory: stored, teamId: mark.id, file: TEAM_FILE };
  });
}

/**
 * After a person changed a shared memory (its text, its pin), the team file gets the change: the
 * diff is what teammates review. Does nothing for a memory that is not shared now.
 */
export function publishIfShared(project: TeamProject, id: string): Shared | null {
  const memory = project.store.get(id);
  const mark = memory && teamMarkOf(memory);
  if (!mark || mark.gone) return null;
  return shareMemory(project, id);
}
