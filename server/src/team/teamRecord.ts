import { z } from 'zod';
import { isProjectPath } from '../memory/projectPath';
import { MEMORY_KINDS, MEMORY_SOURCES, PIN_LEVELS, type Anchor, type Memory, type MemoryKind, type MemorySource, type PinLevel } from '../memory/types';
import { sha256Hex } from '../util/hashing';
import { isTeamId, type TeamId } from './teamMark';

/**
 * One line of the team file: what a teammate's clone needs to hold the same memory, and nothing
 * of this machine (no local id, session, status, usage, absolute path or stale flag). Keys are
 * written in this order, always, so the same memory is the same line in every clone.
 */
export interface TeamRecord {
  readonly id: TeamId;
  readonly kind: MemoryKind;
  readonly title: string;
  readonly body: string;
  readonly why: string | null;
  readonly pin: PinLevel;
  readonly importance: number;
  readonly files: readonly string[];
  readonly symbols: readonly string[];
  /** Pinned code: the lines as last seen, their content hash and the lines around them, so each clone finds it again. */
  readonly anchor: Omit<Anchor, 'stale'> | null;
  readonly meta: Readonly<Record<string, unknown>>;
  /** The channel that first stored it (who wrote it is told by the file's history). */
  readonly source: MemorySource;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * `meta` keys that mean the same in every clone: a constraint's glob scope, whether it is a rule
 * candidate and when one was accepted, how it was extracted, a diff's line counts. Everything else
 * (revisions, transcript record ids, hashes of local files, the team mark itself) stays local.
 */
const PORTABLE_META = ['glob', 'candidate', 'acceptedAt', 'extractor', 'by', 'change', 'added', 'removed', 'truncated', 'lineEndingsOnly', 'lines'] as const;

/** `meta` without the keys a team record carries: what this clone keeps of its own when the team's version arrives. */
export function localMeta(meta: Memory['meta']): Record<string, unknown> {
  const kept: Record<string, unknown> = { ...meta };
  for (const key of PORTABLE_META) delete kept[key];
  return kept;
}

function portableMeta(meta: Memory['meta']): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of PORTABLE_META) if (meta[key] !== undefined) kept[key] = meta[key];
  return kept;
}

/** The record of a memory (already redacted) under a team id. */
export function teamRecordOf(memory: Memory, id: TeamId): TeamRecord {
  return {
    id,
    kind: memory.kind,
    title: memory.title,
    body: memory.body,
    why: memory.why,
    pin: memory.pin,
    importance: memory.importance,
    files: [...memory.files],
    symbols: [...memory.symbols],
    anchor: memory.anchor
      ? {
          path: memory.anchor.path,
          range: { ...memory.anchor.range },
          contentHash: memory.anchor.contentHash,
          contextBefore: memory.anchor.contextBefore,
          contextAfter: memory.anchor.contextAfter,
        }
      : null,
    meta: portableMeta(memory.meta),
    source: memory.source,
    createdAt: new Date(memory.createdAt).toISOString(),
    updatedAt: new Date(memory.updatedAt).toISOString(),
  };
}

/** JSON with object keys sorted (nested `meta` values), so equal records are equal text. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The record as its line (no line break): TeamRecord's key order, nested keys sorted. */
export function teamLine(record: TeamRecord): string {
  const anchor = record.anchor && {
    path: record.anchor.path,
    range: { startLine: record.anchor.range.startLine, startCharacter: record.anchor.range.startCharacter, endLine: record.anchor.range.endLine, endCharacter: record.anchor.range.endCharacter },
    contentHash: record.anchor.contentHash,
    contextBefore: record.anchor.contextBefore,
    contextAfter: record.anchor.contextAfter,
  };
  const ordered = [
    ['id', record.id],
    ['kind', record.kind],
    ['title', record.title],
    ['body', record.body],
    ['why', record.why],
    ['pin', record.pin],
    ['importance', record.importance],
    ['files', record.files],
    ['symbols', record.symbols],
    ['anchor', anchor],
    ['meta', record.meta],
    ['source', record.source],
    ['createdAt', record.createdAt],
    ['updatedAt', record.updatedAt],
  ] as const;
  return `{${ordered.map(([key, value]) => `"${key}":${key === 'meta' ? stableJson(value) : JSON.stringify(value)}`).join(',')}}`;
}

/** What a clone remembers of a line it applied or wrote: a change of any byte is a change. */
export function lineHash(line: string): string {
  return sha256Hex(line).slice(0, 24);
}

const projectPath = z.string().refine(isProjectPath, 'not a path inside the project (relative, without ".." or an absolute start)');
const lineNumber = z.number().int().nonnegative();

const recordSchema = z.strictObject({
  id: z.string().refine(isTeamId, 'not a team memory id (t_ and 20 letters and digits)').transform((s) => s as TeamId),
  kind: z.enum(MEMORY_KINDS),
  title: z.string().min(1),
  body: z.string(),
  why: z.string().nullable(),
  pin: z.enum(PIN_LEVELS),
  importance: z.number().min(0).max(1),
  files: z.array(projectPath),
  symbols: z.array(z.string()),
  anchor: z
    .strictObject({
      path: projectPath,
      range: z.strictObject({ startLine: lineNumber, startCharacter: lineNumber, endLine: lineNumber, endCharacter: lineNumber }),
      contentHash: z.string(),
      contextBefore: z.string(),
      contextAfter: z.string(),
    })
    .nullable(),
  meta: z.record(z.string(), z.unknown()),
  source: z.enum(MEMORY_SOURCES),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});

export type ParsedTeamLine = { readonly ok: true; readonly record: TeamRecord } | { readonly ok: false; readonly error: string };

/** A line of the team file, checked: a bad line is one message, never a partial memory. */
export function parseTeamLine(line: string): ParsedTeamLine {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    return { ok: false, error: `not JSON (${(error as Error).message})` };
  }
  const result = recordSchema.safeParse(json);
  if (!result.success) return { ok: false, error: result.error.issues.map((i) => `${i.path.join('.') || 'line'}: ${i.message}`).join('; ') };
  return { ok: true, record: { ...result.data, meta: portableMeta(result.data.meta) } };
}
