import { z } from 'zod';
import type { CapacitySettingsInput } from '../capacity/settings';
import { recallWeightsSchema, type RecallWeights } from '../recall/weights';
import type { ChangeCaptureSettings } from './changeCapture';

/** What the extension passes at startup (from `engram.*` settings); validated at the boundary. */
const optionsSchema = z
  .object({
    capture: z
      .object({
        coalesceMinutes: z.number().min(0).max(24 * 60).default(10),
        exclude: z.array(z.string()).default([]),
        bulkThreshold: z.number().int().min(1).default(20),
      })
      .prefault({}),
    redact: z.object({ patterns: z.array(z.string()).default([]) }).prefault({}),
    recall: z.object({ weights: recallWeightsSchema.prefault({}) }).prefault({}),
    capacity: z.object({ high: z.number().int().min(1).optional(), low: z.number().int().min(0).optional(), consolidateAfterDays: z.number().int().min(1).optional() }).prefault({}),
    hooks: z
      .object({ sessionStartBudget: z.number().int().min(0).optional(), promptBudget: z.number().int().min(0).optional(), timeoutMs: z.number().int().min(100).optional() })
      .prefault({}),
    /** The team hub (docs/team.md): a postgres:// URL, best without a password (PGPASSFILE), and whether more than shared memories sync. */
    team: z.object({ url: z.string().max(4096).default(''), syncAll: z.boolean().default(false) }).prefault({}),
    /** Where to answer hooks and `engram recall` (mailbox/mailboxPath.ts); the extension tells its terminals too. */
    mailbox: z.string().min(1).max(1000).optional(),
  })
  .prefault({});

export type InitializationOptions = z.infer<typeof optionsSchema>;

export function parseInitializationOptions(raw: unknown): {
  settings: ChangeCaptureSettings;
  redactPatterns: readonly string[];
  recallWeights: RecallWeights;
  /** As given, for config.json; checked there. */
  capacity: CapacitySettingsInput;
  hooks: { sessionStartBudget?: number; promptBudget?: number; timeoutMs?: number };
  team: { url: string; syncAll: boolean };
  mailbox: string | null;
  problem: string | null;
} {
  const parsed = optionsSchema.safeParse(raw ?? {});
  const options = parsed.success ? parsed.data : optionsSchema.parse({});
  const { capture } = options;
  return {
    settings: { coalesceWindowMs: capture.coalesceMinutes * 60_000, exclude: capture.exclude, bulkThreshold: capture.bulkThreshold },
    redactPatterns: options.redact.patterns,
    recallWeights: options.recall.weights,
    capacity: options.capacity,
    hooks: options.hooks,
    team: options.team,
    mailbox: options.mailbox ?? null,
    problem: parsed.success ? null : `Ignoring invalid Engram settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
  };
}
