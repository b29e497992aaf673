import { acceptedMeta, isRuleCandidate } from '../memory/ruleCandidate';
import type { Memory, PinLevel } from '../memory/types';
import type { Project } from '../project';

/**
 * A person sets a memory's pin (the panel, the editor, `engram pin`). Pinning a rule candidate is
 * how a person accepts it: from then on it is a rule agents are given, even if unpinned later.
 * Agents pin through MCP, which refuses candidates: only a person turns extracted text into a rule.
 * Null when no memory has that id.
 */
export function setPinByPerson(project: Pick<Project, 'store' | 'transaction'>, id: string, pin: PinLevel, now: number = Date.now()): Memory | null {
  return project.transaction(() => {
    const before = project.store.get(id);
    if (!before) return null;
    const pinned = project.store.setPin(id, pin, now);
    if (!pinned || pin === 'none' || !isRuleCandidate(before)) return pinned;
    return project.store.update({ ...pinned, meta: acceptedMeta(pinned.meta, now) });
  });
}
