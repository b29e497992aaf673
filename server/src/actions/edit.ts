import type { Memory } from '../memory/types';
import type { Project } from '../project';
import { withTeamWrite, type ActionResult } from './actionResult';
import { ActionRefusal, UnknownMemoryError } from './errors';
import { NO_TEAM_WRITE, publishChange } from './teamWrite';

/** A person's edit: a new title, and optionally a new body and why (null or blank clears the why). */
export interface MemoryEdit {
  readonly title: string;
  readonly body?: string;
  readonly why?: string | null;
}

type EditProject = Pick<Project, 'root' | 'store' | 'redactor' | 'transaction' | 'lifecycle' | 'usage'>;

/**
 * Rewrites a memory's text in one transaction, counted as acted on (usage) when anything changed.
 * Only active memories (restore first), never with an empty title, and a diff memory's body is
 * its patch: its title and why can change, the patch cannot. A shared memory's line in the team
 * file gets the new text, for teammates to review.
 */
export function editMemory(project: EditProject, id: string, edit: MemoryEdit, now: number = Date.now()): ActionResult {
  const { memory, changed } = project.lifecycle.transaction((): { memory: Memory; changed: boolean } => {
    const before = project.store.get(id);
    if (!before) throw new UnknownMemoryError([id]);
    if (before.status !== 'active') throw new ActionRefusal(`${id} is ${before.status}; restore it first, then edit it`);
    const title = edit.title.trim();
    if (!title) throw new ActionRefusal('a memory needs a title');
    if (before.kind === 'diff' && edit.body !== undefined && edit.body !== before.body) {
      throw new ActionRefusal("a diff memory's body is its patch; edit its title or why instead");
    }
    const why = edit.why === undefined ? before.why : edit.why?.trim() || null;
    const body = edit.body ?? before.body;
    if (title === before.title && body === before.body && why === before.why) return { memory: before, changed: false };
    const after = project.store.update({ ...before, title, body, why, updatedAt: now })!;
    project.usage.acted(id, now);
    return { memory: after, changed: true };
  });
  return withTeamWrite(memory, changed, changed ? publishChange(project, id) : NO_TEAM_WRITE);
}
