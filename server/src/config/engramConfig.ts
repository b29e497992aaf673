import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { capacitySettingsSchema } from '../capacity/settings';
import { recallWeightsSchema } from '../recall/weights';
import { engramHome } from '../paths/engramPaths';

/**
 * Per-user settings every Engram process needs, not only the one VS Code configures: the CLI,
 * hooks and MCP servers read `$ENGRAM_HOME/config.json`; the memory server writes it from the
 * `engram.*` settings.
 */
const configSchema = z.object({
  /** `engram.exclude` and `engram.capture.bulkThreshold`: the history import applies them wherever it runs. */
  capture: z
    .object({
      exclude: z.array(z.string()).default([]),
      bulkThreshold: z.number().int().min(1).max(1_000_000).default(20),
    })
    .prefault({}),
  redact: z.object({ patterns: z.array(z.string()).default([]) }).prefault({}),
  recall: z.object({ weights: recallWeightsSchema.prefault({}) }).prefault({}),
  capacity: capacitySettingsSchema.prefault({}),
  hooks: z
    .object({
      sessionStartBudget: z.number().int().min(0).max(100_000).default(1500),
      promptBudget: z.number().int().min(0).max(100_000).default(800),
      timeoutMs: z.number().int().min(100).max(60_000).default(2000),
    })
    .prefault({}),
  /** `engram.team.url` and `engram.team.syncAll`: the team hub (docs/team.md); ENGRAM_TEAM_URL overrides the URL. */
  team: z.object({ url: z.string().max(4096).default(''), syncAll: z.boolean().default(false) }).prefault({}),
});

export type EngramConfig = z.infer<typeof configSchema>;
export type EngramConfigInput = z.input<typeof configSchema>;

export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(engramHome(env), 'config.json');
}

/** The config, or the defaults with a problem to report when the file is unreadable or invalid. */
export function readEngramConfig(env: NodeJS.ProcessEnv = process.env): { config: EngramConfig; problem: string | null } {
  const file = configFile(env);
  let raw: unknown = {};
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      return { config: configSchema.parse({}), problem: `Ignoring ${file}: ${(error as Error).message}` };
    }
  }
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) return { config: parsed.data, problem: null };
  return { config: configSchema.parse({}), problem: `Ignoring ${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
}

/** Writes the config atomically (a reader never sees half a file); returns whether it changed. */
export function writeEngramConfig(config: EngramConfigInput, env: NodeJS.ProcessEnv = process.env): boolean {
  const file = configFile(env);
  const text = `${JSON.stringify(config, null, 2)}\n`;
  let current: string | null = null;
  try {
    current = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (current === text) return false;
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
  return true;
}
