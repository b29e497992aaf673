import { z } from 'zod';

/** Above `high` active memories, the lowest-value ones are archived until `low` remain. */
export interface Watermarks {
  readonly high: number;
  readonly low: number;
}

/** Diff memories of one file and symbol, older than `olderThanDays`, are folded into a summary once there are `minGroup` of them. */
export interface ConsolidationRule {
  readonly olderThanDays: number;
  readonly minGroup: number;
}

export interface CapacitySettings {
  readonly watermarks: Watermarks;
  readonly consolidation: ConsolidationRule;
}

export const DEFAULT_CAPACITY: CapacitySettings = {
  watermarks: { high: 50_000, low: 45_000 },
  consolidation: { olderThanDays: 30, minGroup: 5 },
};

const count = z.number().int().min(0);

/**
 * Capacity settings as given by a user (VS Code settings, CLI flags): each field optional. A
 * high mark alone brings the low mark to 90% of it; a low mark alone raises the high mark to it
 * if needed; both given must be ordered.
 */
export const capacitySettingsSchema = z
  .object({
    high: count.min(1).optional(),
    low: count.optional(),
    consolidateAfterDays: count.min(1).optional(),
    consolidateMinGroup: count.min(2).optional(),
  })
  .refine((s) => s.high === undefined || s.low === undefined || s.low <= s.high, { message: 'the low mark must not be above the high mark', path: ['low'] })
  .transform((s): CapacitySettings => {
    const defaults = DEFAULT_CAPACITY.watermarks;
    const high = s.high ?? Math.max(defaults.high, s.low ?? 0);
    const low = s.low ?? (s.high === undefined ? defaults.low : Math.floor(s.high * 0.9));
    return {
      watermarks: { high, low },
      consolidation: {
        olderThanDays: s.consolidateAfterDays ?? DEFAULT_CAPACITY.consolidation.olderThanDays,
        minGroup: s.consolidateMinGroup ?? DEFAULT_CAPACITY.consolidation.minGroup,
      },
    };
  });

export type CapacitySettingsInput = z.input<typeof capacitySettingsSchema>;
