import { acceptedMeta, isRuleCandidate } from '../memory/ruleCandidate';
import type { Memory, PinLevel } from '../memory/types';
import type { Project } from '../project';
import { withTeamWrite, type ActionResult } from './actionResult';
import type { Actor } from './actor';
import { ActionRefusal, UnknownMemoryError } from './errors';
import { NO_TEAM_WRITE, publishChange } from './teamWrite';

type PinProject = Pick<Project, 'root' | 'store' | 'redactor' | 'transaction' | 'lifecycle' | 'usage'>;

/**
 * Sets a memory's pin (`none` unpins), in one transaction, and counts it as acted on (usage) when
 * the pin changed. Only active memories are pinned: an archived hard pin would break "hard pins
 * are never archived", and a forgotten one was put away on purpose. Pinning a rule candidate is
 * how a person accepts it as a rule (it stays one if unpinned later); an agent cannot, since
 * only a person turns text Engram extracted from a prompt into a rule agents must follow.
 * A shared memory's pin is the team's: its line in the team file gets the change.
 */
export function pinMemory(project: PinProject, id: string, pin: PinLevel, by: Actor, now: number = Date.now()): ActionResult {
  const { memory, changed } = project.lifecycle.transaction((): { memory: Memory; changed: boolean } => {
    const before = project.store.get(id);
    if (!before) throw new UnknownMemoryError([id]);
    if (pin !== 'none' && before.status !== 'active') throw new ActionRefusal(`${id} is ${before.status}; restore it first, then pin it`);
    const candidate = isRuleCandidate(before);
    if (pin !== 'none' && candidate && by === 'agent') {
      throw new ActionRefusal(
        `${id} is a rule candidate Engram extracted from a prompt; only a person accepts it as a rule (Pin in the Engram panel, or \`engram pin ${id}\`). Ask the user if it should hold`,
      );
    }
    if (before.pin === pin) return { memory: before, changed: false };
    const pinned = project.store.setPin(id, pin, now)!;
    const after = pin !== 'none' && candidate ? project.store.update({ ...pinned, meta: acceptedMeta(pinned.meta, now) })! : pinned;
    project.usage.acted(id, now);
    return { memory: after, changed: true };
  });
  return withTeamWrite(memory, changed, changed ? publishChange(project, id) : NO_TEAM_WRITE);
}
