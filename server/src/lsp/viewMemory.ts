import { globOf } from '../constraints/scope';
import { placeOf } from '../memory/place';
import { isRuleCandidate } from '../memory/ruleCandidate';
import type { Memory } from '../memory/types';
import { isShared } from '../team/teamMark';
import { summarize } from '../../../contracts/protocol';
import type { ViewMemory } from '../../../contracts/viewProtocol';

/** Lists carry this much of a body (a diff's patch can be 64 KiB); details carry all of it. */
export const LIST_BODY_MAX = 1200;

function changeOf(memory: Memory): ViewMemory['change'] {
  if (memory.kind !== 'diff') return null;
  const { added, removed } = memory.meta as { added?: unknown; removed?: unknown };
  return typeof added === 'number' && typeof removed === 'number' ? { added, removed } : null;
}

/** A memory for the panel and the timeline; `bodyMax` null keeps the whole body. */
export function viewMemory(memory: Memory, bodyMax: number | null = LIST_BODY_MAX): ViewMemory {
  const summary = summarize(memory);
  const truncated = bodyMax !== null && memory.body.length > bodyMax;
  return {
    ...summary,
    body: truncated ? `${memory.body.slice(0, bodyMax)}…` : memory.body,
    bodyTruncated: truncated,
    sessionId: memory.sessionId,
    glob: globOf(memory),
    change: changeOf(memory),
    place: placeOf(memory),
    candidate: isRuleCandidate(memory),
    team: isShared(memory),
  };
}
