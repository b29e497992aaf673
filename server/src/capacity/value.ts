import type { MemoryKind, PinLevel } from '../memory/types';

/** What the eviction value of a memory depends on; a `Memory` plus, when known, when it was last used. */
export interface ValueInput {
  readonly kind: MemoryKind;
  readonly importance: number;
  readonly pin: PinLevel;
  readonly updatedAt: number;
  /** When the memory was last shown (to an agent, in a hover) or acted on; null or 0 when never. */
  readonly lastUsedAt?: number | null;
}

/**
 * How much each kind is worth keeping in context, and how fast that fades: a rule or a decision
 * stays true for months, a diff or a prompt is mostly useful while the work is fresh.
 */
export const KIND_VALUE: Readonly<Record<MemoryKind, { readonly weight: number; readonly halfLifeDays: number }>> = {
  constraint: { weight: 1.0, halfLifeDays: 365 },
  decision: { weight: 0.9, halfLifeDays: 180 },
  gotcha: { weight: 0.8, halfLifeDays: 180 },
  fact: { weight: 0.7, halfLifeDays: 90 },
  note: { weight: 0.6, halfLifeDays: 90 },
  summary: { weight: 0.5, halfLifeDays: 60 },
  intent: { weight: 0.4, halfLifeDays: 14 },
  diff: { weight: 0.3, halfLifeDays: 14 },
};

/** Recency never takes more than 90% of a memory's value: an old constraint still outranks a fresh prompt. */
export const RECENCY_FLOOR = 0.1;

/**
 * Added to a soft pin's value. It is above the largest value an unpinned memory can have
 * (weight 1 × (0.5 + importance 1) × recency 1 = 1.5), so soft pins go only after every
 * unpinned memory.
 */
export const SOFT_PIN_BONUS = 10;

const DAY_MS = 86_400_000;

/**
 * The value of keeping a memory active, for eviction (lowest goes first):
 *
 *   weight(kind) × (0.5 + importance) × (RECENCY_FLOOR + (1 − RECENCY_FLOOR) × 2^(−age / halfLife(kind)))
 *
 * where age runs from the later of its last update and its last use. A soft pin adds
 * SOFT_PIN_BONUS; a hard pin is worth Infinity: it is never a candidate.
 */
export function memoryValue(memory: ValueInput, now: number): number {
  if (memory.pin === 'hard') return Infinity;
  const { weight, halfLifeDays } = KIND_VALUE[memory.kind] ?? KIND_VALUE.note;
  const touchedAt = Math.max(memory.updatedAt, memory.lastUsedAt ?? 0);
  const ageDays = Math.max(0, now - touchedAt) / DAY_MS;
  const recency = RECENCY_FLOOR + (1 - RECENCY_FLOOR) * 2 ** (-ageDays / halfLifeDays);
  const importance = Math.min(1, Math.max(0, memory.importance));
  return weight * (0.5 + importance) * recency + (memory.pin === 'soft' ? SOFT_PIN_BONUS : 0);
}
