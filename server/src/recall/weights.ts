import { z } from 'zod';
import type { MemoryKind } from '../memory/types';

/**
 * The weights of recall's score (docs/recall.md has the formula). Each part is a number in
 * [0, 1] (usage in [-1, 1]) times its weight; the weights are settings (`engram.recall.weights`).
 */
export const recallWeightsSchema = z.object({
  text: z.number().min(0).max(100).default(3),
  file: z.number().min(0).max(100).default(2),
  symbol: z.number().min(0).max(100).default(2),
  recency: z.number().min(0).max(100).default(1),
  kind: z.number().min(0).max(100).default(1),
  importance: z.number().min(0).max(100).default(0.5),
  pin: z.number().min(0).max(100).default(2),
  usage: z.number().min(0).max(100).default(1),
  /** Days for the recency part to halve. */
  halfLifeDays: z.number().min(0.01).max(36_500).default(14),
});

export type RecallWeights = z.infer<typeof recallWeightsSchema>;

export const DEFAULT_WEIGHTS: RecallWeights = recallWeightsSchema.parse({});

/** How much a kind of memory is worth in context, before anything else is known. */
export const KIND_WEIGHT: Readonly<Record<MemoryKind, number>> = {
  constraint: 1,
  decision: 0.8,
  gotcha: 0.8,
  fact: 0.6,
  summary: 0.5,
  note: 0.5,
  diff: 0.4,
  intent: 0.1,
};
