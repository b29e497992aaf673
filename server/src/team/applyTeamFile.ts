import type { Memory } from '../memory/types';
import type { Project } from '../project';
import { memoryFromRecord, withRecordContent } from './recordMemory';
import { readTeamFile, type TeamFileContents, type TeamFileProblem } from './teamLayout';
import { readTeamFileText } from './teamFile';
import { teamMarkOf, withTeamMark, type TeamId, type TeamMark } from './teamMark';
import { lineHash, localMeta, type TeamRecord } from './teamRecord';

/** What reading the team file changed in the local store. */
export interface TeamSyncReport {
  readonly file: 'absent' | 'present';
  readonly added: number;
  readonly updated: number;
  /** Lines that left the file: memories received from it are forgotten here, this user's own stay as private memories. */
  readonly removed: number;
  readonly problems: readonly TeamFileProblem[];
}

/** `sourceRef` of a memory received from the team file: unique, so two processes applying one line cannot add it twice. */
export function teamSourceRef(id: TeamId): string {
  return `team:${id}`;
}

/** `meta` of a memory from its record, with what this clone keeps of its own (the record's keys win). */
function metaFrom(record: TeamRecord, local: Memory['meta'], mark: TeamMark): Record<string, unknown> {
  return withTeamMark({ ...localMeta(local), ...record.meta }, mark);
}

function receivedMemory(root: string, record: TeamRecord, hash: string, now: number): Memory {
  return memoryFromRecord(root, record, teamSourceRef(record.id), metaFrom(record, {}, { id: record.id, line: hash, received: true }), now);
}

function updatedMemory(root: string, local: Memory, record: TeamRecord, hash: string): Memory {
  const mark = teamMarkOf(local)!;
  return {
    ...withRecordContent(root, local, record),
    // A line back in the file (a checkout of a branch that has it) is active again; a memory this user forgot stays forgotten.
    status: mark.gone && mark.received ? 'active' : local.status,
    updatedAt: Math.max(Date.parse(record.updatedAt), local.updatedAt + 1),
    meta: metaFrom(record, local.meta, { id: record.id, line: hash, received: true }),
  };
}

/**
 * Makes the local store agree with the team file, in one transaction and idempotently: each
 * line is hashed, and only a line that differs from the one last applied or written here changes
 * its memory (so a memory the user forgot locally stays forgotten until the team changes it).
 * Lines that left the file: a memory received from it is forgotten, one this user shared stays
 * theirs, unshared. A file with problems (conflict markers, bad lines) still applies every good
 * line but removes nothing, since a line it cannot read may be one it would remove.
 * Usage, injections and the local id stay as they are.
 */
export function applyTeamContents(project: Pick<Project, 'root' | 'store' | 'team' | 'transaction'>, contents: TeamFileContents | null, now: number = Date.now()): TeamSyncReport {
  return project.transaction(() => {
    const local = new Map<string, Memory>();
    for (const memory of project.team.marked()) local.set(teamMarkOf(memory)!.id, memory);
    let added = 0;
    let updated = 0;
    let removed = 0;
    for (const [id, line] of contents?.records ?? []) {
      const hash = lineHash(line.text);
      const memory = local.get(id);
      if (!memory) {
        const taken = project.store.bySourceRef(teamSourceRef(id));
        if (taken) {
          // Received once, then unshared here: the line is back, the memory takes it again.
          project.store.update(updatedMemory(project.root, { ...taken, meta: withTeamMark(taken.meta, { id, gone: true, received: true }) }, line.record, hash));
          updated++;
        } else {
          project.store.import(receivedMemory(project.root, line.record, hash, now));
          added++;
        }
        continue;
      }
      const mark = teamMarkOf(memory)!;
      if (mark.line === hash && !mark.gone) continue;
      if (mark.line === hash && !mark.received) {
        // This user's own memory, written here, is in the file again (a checkout back): shared again as it is.
        project.store.update({ ...memory, meta: withTeamMark(memory.meta, { id, line: hash }) });
      } else {
        project.store.update(updatedMemory(project.root, memory, line.record, hash));
      }
      updated++;
    }
    if (!contents?.problems.length) {
      for (const [id, memory] of local) {
        const mark = teamMarkOf(memory)!;
        if (mark.gone || contents?.records.has(id as TeamId)) continue;
        const status = mark.received ? 'forgotten' : memory.status;
        project.store.update({ ...memory, status, meta: withTeamMark(memory.meta, { ...mark, gone: true }) });
        removed++;
      }
    }
    return { file: contents ? 'present' : 'absent', added, updated, removed, problems: contents?.problems ?? [] };
  });
}

/** Reads the project's team file and applies it (applyTeamContents). */
export function applyTeamFile(project: Pick<Project, 'root' | 'store' | 'team' | 'transaction'>, now: number = Date.now()): TeamSyncReport {
  const text = readTeamFileText(project.root);
  return applyTeamContents(project, text === null ? null : readTeamFile(text), now);
}
