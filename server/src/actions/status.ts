import type { MemoryId, MemoryKind, MemoryStatus, PinLevel } from '../memory/types';
import type { Project } from '../project';
import { ActionRefusal, UnknownMemoryError } from './errors';

/** One memory as a status action reports it: enough to recognise it, with its status before the action. */
export interface MemoryState {
  readonly id: MemoryId;
  readonly kind: MemoryKind;
  readonly title: string;
  readonly status: MemoryStatus;
  readonly pin: PinLevel;
}

export interface StatusChange {
  readonly to: MemoryStatus;
  /** Moved to `to`; `status` is where each came from. */
  readonly changed: readonly MemoryState[];
  /** Already there. */
  readonly unchanged: readonly MemoryState[];
}

type Lifecycle = Pick<Project, 'lifecycle'>;

/** Soft delete: out of automatic context and recall, undone by `restore`; only `purge` deletes. Pinned memories too. */
export function forget(project: Lifecycle, ids: readonly string[]): StatusChange {
  return moveTo(project, ids, 'forgotten');
}

/**
 * Back to active, from forgotten or archived. Restoring counts as acting on the memory (usage),
 * so its value is fresh and the next compaction does not archive it straight away.
 */
export function restore(project: Pick<Project, 'lifecycle' | 'usage'>, ids: readonly string[], now: number = Date.now()): StatusChange {
  return project.lifecycle.transaction(() => {
    const change = moveTo(project, ids, 'active');
    for (const memory of change.changed) project.usage.acted(memory.id, now);
    return change;
  });
}

/** Out of automatic context, still found by explicit search. Hard pins are never archived: unpin first. */
export function archive(project: Lifecycle, ids: readonly string[]): StatusChange {
  return moveTo(project, ids, 'archived', (state) => {
    if (state.pin === 'hard' && state.status !== 'archived') {
      throw new ActionRefusal(`${state.id} is hard-pinned, and hard pins are never archived (unpin it first: engram unpin ${state.id})`);
    }
  });
}

/**
 * Deletes memories for good. Only forgotten or archived ones unless `force`, so a purge never
 * takes something still in use by mistake; `forgotten` adds every forgotten memory.
 */
export function purge(project: Lifecycle, request: { ids?: readonly string[]; forgotten?: boolean; force?: boolean }): { purged: readonly MemoryState[] } {
  const { lifecycle } = project;
  return lifecycle.transaction(() => {
    const ids = [...new Set([...(request.ids ?? []), ...(request.forgotten ? lifecycle.idsWithStatus('forgotten') : [])])];
    const states = statesOf(project, ids);
    const active = states.filter((s) => s.status === 'active');
    if (active.length > 0 && !request.force) {
      throw new ActionRefusal(
        `${active.map((s) => s.id).join(', ')} ${active.length === 1 ? 'is' : 'are'} active; purge deletes only forgotten or archived memories (forget first, or pass --force)`,
      );
    }
    lifecycle.purge(ids);
    return { purged: states };
  });
}

/** All or nothing: an unknown id or a refused one leaves every memory as it was. */
function moveTo(project: Lifecycle, ids: readonly string[], to: MemoryStatus, check?: (state: MemoryState) => void): StatusChange {
  const { lifecycle } = project;
  return lifecycle.transaction((): StatusChange => {
    const states = statesOf(project, [...new Set(ids)]);
    if (check) states.forEach(check);
    const moved = new Set(lifecycle.setStatus(states.map((s) => s.id), to));
    return { to, changed: states.filter((s) => moved.has(s.id)), unchanged: states.filter((s) => !moved.has(s.id)) };
  });
}

/** The states of `ids`, in their order; throws when any is unknown. */
function statesOf(project: Lifecycle, ids: readonly string[]): MemoryState[] {
  const found = project.lifecycle.states(ids);
  const unknown = ids.filter((id) => !found.has(id as MemoryId));
  if (unknown.length > 0) throw new UnknownMemoryError(unknown);
  return ids.map((id) => ({ id: id as MemoryId, ...found.get(id as MemoryId)! }));
}
