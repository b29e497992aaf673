import { z } from 'zod';
import { globOf } from '../constraints/scope';
import { placeOf } from '../memory/place';
import { MEMORY_ORIGINS, ORIGIN_LABELS, originOf } from '../memory/origin';
import { isRuleCandidate } from '../memory/ruleCandidate';
import { MEMORY_KINDS, MEMORY_SOURCES, MEMORY_STATUSES, PIN_LEVELS, type Memory } from '../memory/types';

/** How memories look to an MCP client: structured (zod, for `outputSchema`) and as text for a model. */

const EXCERPT_MAX = 300;

export const anchorOutput = z.object({
  path: z.string(),
  /** 1-based, inclusive. */
  startLine: z.number().int(),
  endLine: z.number().int(),
  stale: z.boolean(),
});

/** Empty fields are left out: Claude Code gives the model this JSON, and every key costs tokens. */
export const memoryOutput = z.object({
  id: z.string(),
  kind: z.enum(MEMORY_KINDS),
  title: z.string(),
  /** The start of the body on one line, when it says more than the title; never for diffs (their body is a patch: `get` it). */
  excerpt: z.string().optional(),
  why: z.string().optional(),
  pin: z.enum(PIN_LEVELS),
  status: z.enum(MEMORY_STATUSES),
  source: z.enum(MEMORY_SOURCES),
  /** Whose words these are: the user's, Claude's, an agent's, a tool's output, a change on disk. */
  origin: z.enum(MEMORY_ORIGINS),
  /** A rule extracted from a prompt that no person has accepted: not a rule to follow. */
  candidate: z.literal(true).optional(),
  files: z.array(z.string()),
  symbols: z.array(z.string()),
  /** Pinned code, 1-based lines. */
  anchor: anchorOutput.optional(),
  glob: z.string().optional(),
  /** Where it applies, as a phrase: "src/db.ts › Pool.acquire", "lines 5–13 of src/db.ts", "the whole project". */
  place: z.string(),
  updatedAt: z.string(),
});
export type MemoryOutput = z.infer<typeof memoryOutput>;

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function excerptOf(memory: Memory): string {
  if (memory.kind === 'diff' || !memory.body) return '';
  const excerpt = oneLine(memory.body, EXCERPT_MAX);
  return excerpt === oneLine(memory.title, EXCERPT_MAX) ? '' : excerpt;
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString();
}

export function memoryOutputOf(memory: Memory): MemoryOutput {
  const excerpt = excerptOf(memory);
  const glob = globOf(memory);
  return {
    id: memory.id,
    kind: memory.kind,
    title: memory.title,
    ...(excerpt ? { excerpt } : {}),
    ...(memory.why ? { why: memory.why } : {}),
    pin: memory.pin,
    status: memory.status,
    source: memory.source,
    origin: originOf(memory),
    ...(isRuleCandidate(memory) ? { candidate: true as const } : {}),
    files: [...memory.files],
    symbols: [...memory.symbols],
    ...(memory.anchor
      ? { anchor: { path: memory.anchor.path, startLine: memory.anchor.range.startLine + 1, endLine: memory.anchor.range.endLine + 1, stale: memory.anchor.stale } }
      : {}),
    ...(glob ? { glob } : {}),
    place: placeOf(memory),
    updatedAt: isoDate(memory.updatedAt),
  };
}

/** "[constraint, hard pin]", "[note, archived]", "[constraint, candidate, not accepted]". */
export function labelOf(memory: Memory): string {
  const parts: string[] = [memory.kind];
  if (memory.pin !== 'none') parts.push(`${memory.pin} pin`);
  if (isRuleCandidate(memory)) parts.push('candidate, not accepted');
  if (memory.status !== 'active') parts.push(memory.status);
  return `[${parts.join(', ')}]`;
}

/**
 * One memory in a list for a model: id (to pass to get, pin, forget), label, title, why, place and
 * date on one line, then the excerpt indented under it.
 */
export function memoryLines(memory: Memory, extra = ''): string {
  const why = memory.why ? ` — why: ${oneLine(memory.why, 300)}` : '';
  const place = placeOf(memory);
  const head = `- ${memory.id} ${labelOf(memory)} ${oneLine(memory.title, 200)}${why}${place ? ` · ${place}` : ''} · ${ORIGIN_LABELS[originOf(memory)]} · updated ${isoDate(memory.updatedAt).slice(0, 10)}${extra}`;
  const excerpt = excerptOf(memory);
  return excerpt ? `${head}\n    ${excerpt}` : head;
}
