import type { Memory } from './types';

/**
 * A rule Engram extracted from a prompt by pattern (transcriptMemories.ts): about one in ten is
 * not a rule at all, so it is not given to agents until a person accepts it by pinning it
 * (actions/pin.ts), which drops `meta.candidate`. A candidate pinned before
 * acceptance existed was pinned on purpose, so a pin counts as accepted too.
 */
export function isRuleCandidate(memory: Pick<Memory, 'kind' | 'pin' | 'meta'>): boolean {
  return memory.kind === 'constraint' && memory.meta.candidate === true && memory.pin === 'none';
}

/** `meta` once a person accepted the candidate: no longer a candidate, and when it became a rule. */
export function acceptedMeta(meta: Memory['meta'], now: number): Record<string, unknown> {
  const { candidate: _candidate, ...rest } = meta;
  return { ...rest, acceptedAt: now };
}
