import { z } from 'zod';
import { MEMORY_KINDS, MEMORY_SOURCES, MEMORY_STATUSES, PIN_LEVELS, type Memory, type MemoryId } from './types';
import { isMemoryId } from './ids';
import { isProjectPath } from './projectPath';

/**
 * The exchange format of `engram export` / `engram import`: one JSON object per line, every field
 * of a memory, timestamps as ISO strings. Parsed at the boundary so bad lines never reach the store.
 */
const rangeSchema = z.object({
  startLine: z.number().int().nonnegative(),
  startCharacter: z.number().int().nonnegative(),
  endLine: z.number().int().nonnegative(),
  endCharacter: z.number().int().nonnegative(),
});

/** Where a memory is tied to code: a path inside the project, as Engram stores it (links are checked where the project is known). */
const projectPath = z.string().refine(isProjectPath, 'not a path inside the project (relative to its root, without ".." or an absolute start)');

const isoTime = z.iso.datetime({ offset: true }).transform((s) => Date.parse(s));

export const memoryRecordSchema = z.object({
  id: z.string().refine(isMemoryId, 'not an Engram memory id').transform((s) => s as MemoryId),
  kind: z.enum(MEMORY_KINDS),
  title: z.string().min(1),
  body: z.string(),
  why: z.string().nullable(),
  source: z.enum(MEMORY_SOURCES),
  sessionId: z.string().nullable(),
  // Absent in exports written before schema v3.
  sourceRef: z.string().nullable().default(null),
  createdAt: isoTime,
  updatedAt: isoTime,
  importance: z.number().min(0).max(1),
  pin: z.enum(PIN_LEVELS),
  status: z.enum(MEMORY_STATUSES),
  files: z.array(projectPath),
  symbols: z.array(z.string()),
  anchor: z
    .object({
      path: projectPath,
      range: rangeSchema,
      contentHash: z.string(),
      contextBefore: z.string(),
      contextAfter: z.string(),
      stale: z.boolean(),
    })
    .nullable(),
  meta: z.record(z.string(), z.unknown()),
});

export function memoryToRecord(memory: Memory): Record<string, unknown> {
  return {
    ...memory,
    createdAt: new Date(memory.createdAt).toISOString(),
    updatedAt: new Date(memory.updatedAt).toISOString(),
  };
}

export type ParsedRecord = { ok: true; memory: Memory } | { ok: false; error: string };

export function parseMemoryRecord(line: string): ParsedRecord {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    return { ok: false, error: `not JSON (${(error as Error).message})` };
  }
  const result = memoryRecordSchema.safeParse(json);
  if (!result.success) {
    return { ok: false, error: result.error.issues.map((i) => `${i.path.join('.') || 'record'}: ${i.message}`).join('; ') };
  }
  return { ok: true, memory: result.data };
}
