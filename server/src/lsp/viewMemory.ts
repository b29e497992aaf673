import { globOf } from '../constraints/scope';
import type { Memory } from '../memory/types';
import { summarize } from '../protocol';
import type { ViewMemory } from '../viewProtocol';

/** Lists carry this much of a body (a diff's patch can be 64 KiB); details carry all of it. */
export const LIST_BODY_MAX = 1200;

/** "lines 5–13 of src/db.ts", "src/db.ts › findCustomer", "files matching src/**", "the whole project". */
export function placeOf(memory: Memory): string {
  if (memory.anchor) {
    const { path, range, stale } = memory.anchor;
    const lines = range.startLine === range.endLine ? `line ${range.startLine + 1}` : `lines ${range.startLine + 1}–${range.endLine + 1}`;
    return `${lines} of ${path}${stale ? ' (stale: its code is gone)' : ''}`;
  }
  if (memory.files.length) {
    const symbols = memory.symbols.length ? ` › ${memory.symbols.slice(0, 3).join(', ')}${memory.symbols.length > 3 ? ', …' : ''}` : '';
    return `${memory.files.slice(0, 3).join(', ')}${memory.files.length > 3 ? ', …' : ''}${symbols}`;
  }
  if (memory.symbols.length) return memory.symbols.slice(0, 3).join(', ');
  const glob = globOf(memory);
  if (glob) return `files matching ${glob}`;
  return memory.kind === 'constraint' ? 'the whole project' : '';
}

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
  };
}
