import type { Memory } from '../memory/types';
import type { TeamId } from '../team/teamMark';

/**
 * What a local memory knows of the hub, in `meta.hub` (local only, never pushed): its key there,
 * and `received` once its text came from the hub (a teammate wrote it: origin "hub"). Memories
 * this user pushed carry no mark; their tie to the hub is in the store's `hub_links`.
 */
export interface HubMark {
  readonly key: TeamId;
  readonly received: true;
}

export function hubMarkOf(memory: Pick<Memory, 'meta'>): HubMark | null {
  const hub = memory.meta.hub as Partial<HubMark> | undefined;
  return hub && typeof hub === 'object' && typeof hub.key === 'string' && hub.received === true ? (hub as HubMark) : null;
}

/** Its text came from the team hub: agents are told it is the team's. */
export function isFromHub(memory: Pick<Memory, 'meta'>): boolean {
  return hubMarkOf(memory) !== null;
}
