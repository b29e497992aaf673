import { z } from 'zod';
import { MEMORY_KINDS, MEMORY_STATUSES, type Memory } from '../memory/types';
import type { Project } from '../project';
import type { MemoryRelation } from '../store/memoryStore';
import { placeOf } from '../memory/place';
import { isoDate, labelOf, memoryOutput, memoryOutputOf } from './memoryView';

/** One memory in full, for `get` and the `engram://memory/{id}` resource. */

/** Bodies past this are cut (diffs with many revisions can be large); the result says so. */
const BODY_MAX = 50_000;
/** Meta past this loses the patches of earlier revisions (the body holds the latest). */
const META_MAX = 20_000;

const RELATION_LABEL: Readonly<Record<'from' | 'to', Readonly<Record<MemoryRelation, string>>>> = {
  from: { revises: 'revises', summarizes: 'summarizes' },
  to: { revises: 'revised by', summarizes: 'summarized in' },
};

export const linkOutput = z.object({
  id: z.string(),
  relation: z.enum(['revises', 'summarizes']),
  /** from: this memory points at the other; to: the other points at this one. */
  direction: z.enum(['from', 'to']),
  kind: z.enum(MEMORY_KINDS).nullable(),
  title: z.string().nullable(),
  status: z.enum(MEMORY_STATUSES).nullable(),
});

export const fullMemoryOutput = memoryOutput.extend({
  createdAt: z.string(),
  body: z.string(),
  bodyTruncated: z.boolean(),
  importance: z.number(),
  sessionId: z.string().nullable(),
  meta: z.record(z.string(), z.unknown()),
  links: z.array(linkOutput),
});
export type FullMemoryOutput = z.infer<typeof fullMemoryOutput>;

function boundedMeta(meta: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (JSON.stringify(meta).length <= META_MAX || !Array.isArray(meta.revisions)) return { ...meta };
  const revisions = (meta.revisions as unknown[]).map((r) => (r && typeof r === 'object' ? { ...(r as Record<string, unknown>), patch: '[omitted: too large]' } : r));
  return { ...meta, revisions };
}

export function fullMemoryOf(project: Project, memory: Memory): FullMemoryOutput {
  const { from, to } = project.store.links(memory.id);
  const states = project.lifecycle.states([...from, ...to].map((l) => l.id));
  const links = [
    ...from.map((l) => ({ ...l, direction: 'from' as const })),
    ...to.map((l) => ({ ...l, direction: 'to' as const })),
  ].map((l) => {
    const state = states.get(l.id);
    return { id: l.id, relation: l.relation, direction: l.direction, kind: state?.kind ?? null, title: state?.title ?? null, status: state?.status ?? null };
  });
  const bodyTruncated = memory.body.length > BODY_MAX;
  return {
    ...memoryOutputOf(memory),
    createdAt: isoDate(memory.createdAt),
    body: bodyTruncated ? memory.body.slice(0, BODY_MAX) : memory.body,
    bodyTruncated,
    importance: memory.importance,
    sessionId: memory.sessionId,
    meta: boundedMeta(memory.meta),
    links,
  };
}

/** Markdown for a model or a reader: header, where and why, the body (a diff fenced as one), links. */
export function fullMemoryText(memory: Memory, full: FullMemoryOutput): string {
  const lines = [
    `# ${memory.id} ${labelOf(memory)} ${memory.title}`,
    `from ${memory.source} · created ${isoDate(memory.createdAt)} · updated ${isoDate(memory.updatedAt)}${memory.sessionId ? ` · session ${memory.sessionId}` : ''}`,
  ];
  const place = placeOf(memory);
  if (place) lines.push(`Where: ${place}`);
  if (memory.why) lines.push(`Why: ${memory.why}`);
  if (full.body && full.body !== memory.title) {
    lines.push('', memory.kind === 'diff' ? `\`\`\`diff\n${full.body}\n\`\`\`` : full.body);
    if (full.bodyTruncated) lines.push(`[… cut at ${BODY_MAX.toLocaleString('en')} of ${memory.body.length.toLocaleString('en')} characters]`);
  }
  const revisions = Array.isArray(memory.meta.revisions) ? memory.meta.revisions.length : 0;
  if (revisions) lines.push('', `${revisions} earlier revision${revisions === 1 ? '' : 's'} of this change are in meta.revisions (structured content).`);
  if (full.links.length) {
    lines.push('', 'Links:');
    for (const link of full.links) lines.push(`- ${RELATION_LABEL[link.direction][link.relation]} ${link.id}${link.kind ? ` [${link.kind}] ${link.title}` : ''}`);
  }
  return lines.join('\n');
}
