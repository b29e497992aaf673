import { newMemoryId } from './ids';
import type { Memory, NewMemory } from './types';

/** Tags as stored: each once, sorted. */
export function sortedUnique(values: readonly string[] | undefined): string[] {
  return [...new Set(values ?? [])].sort();
}

/** The whole memory a store keeps for `input`, made at `at`: a new id, active, tags as sorted sets. */
export function completeMemory(input: NewMemory, at: number): Memory {
  return {
    id: newMemoryId(at),
    kind: input.kind,
    title: input.title,
    body: input.body ?? '',
    why: input.why ?? null,
    source: input.source,
    sessionId: input.sessionId ?? null,
    sourceRef: input.sourceRef ?? null,
    createdAt: at,
    updatedAt: at,
    importance: input.importance ?? 0.5,
    pin: input.pin ?? 'none',
    status: 'active',
    files: sortedUnique(input.files),
    symbols: sortedUnique(input.symbols),
    anchor: input.anchor ? { ...input.anchor, stale: false } : null,
    meta: input.meta ?? {},
  };
}
