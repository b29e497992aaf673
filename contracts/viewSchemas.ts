import { z } from 'zod';
import { MEMORY_KINDS, MEMORY_SOURCES, MEMORY_STATUSES, PIN_LEVELS } from '../server/src/memory/types';
import type { CountedMemories } from './protocol';
import { MEMORY_SELECTION_MAX, type MemoryAction, type MemorySelectionParams, type TimelinePageParams, type TimelineSearchParams, type TimelineSearchScope } from './viewProtocol';

// Parts of the memory panel's and timeline's messages (viewProtocol.ts) checked on receipt by
// both ends: by the extension, from its webviews, and by the memory server, from the extension.

export const projectRootSchema = z.string().min(1).max(4096);

/** One memory of one project. */
export const memoryRefSchema = z.object({ projectRoot: projectRootSchema, id: z.string().min(1).max(200) });

/** What a CodeLens counts (protocol.ts), as `engram.showMemories` and engram/memorySelection take it. */
export const countedMemoriesSchema = z.discriminatedUnion('of', [
  z.object({ of: z.literal('file') }),
  z.object({ of: z.literal('declaration'), name: z.string().min(1).max(1000) }),
]) satisfies z.ZodType<CountedMemories>;

/** Memories named by id (a hover link, a pinned constraint's lens). */
export const selectedIdsSchema = z.array(z.string().min(1).max(200)).min(1);

/** viewProtocol's MemorySelectionParams: ids or what a CodeLens counts, one of them (a field at fault is named). */
export const memorySelectionParamsSchema = z
  .object({ uri: z.string().min(1).max(4096), ids: selectedIdsSchema.max(MEMORY_SELECTION_MAX).optional(), counted: countedMemoriesSchema.optional() })
  .refine((p) => (p.ids === undefined) !== (p.counted === undefined), { message: 'give the ids or what a CodeLens counted, one of them', path: ['ids'] })
  .transform((p): MemorySelectionParams => (p.ids ? { uri: p.uri, ids: p.ids } : { uri: p.uri, counted: p.counted! })) satisfies z.ZodType<MemorySelectionParams>;

/** viewProtocol's TimelineFilter. */
export const timelineFilterSchema = z.object({
  kinds: z.array(z.enum(MEMORY_KINDS)).optional(),
  path: z.string().max(4096).optional(),
  symbol: z.string().max(1000).optional(),
  sources: z.array(z.enum(MEMORY_SOURCES)).optional(),
  sessionId: z.string().max(200).optional(),
  pinned: z.boolean().optional(),
  team: z.boolean().optional(),
  statuses: z.array(z.enum(MEMORY_STATUSES)).optional(),
});

/** viewProtocol's TimelineCursor: where the next page starts (keyset). */
export const timelineCursorSchema = z.object({ updatedAt: z.number().int(), rowid: z.number().int() });

/** The most results one timeline search may ask for. */
export const TIMELINE_SEARCH_MAX = 200;

/** viewProtocol's TimelineSearchScope. */
export const timelineSearchScopeSchema = z.enum(['local', 'team', 'team-all']) satisfies z.ZodType<TimelineSearchScope>;

/** viewProtocol's TimelineSearchParams: the timeline's search box. */
export const timelineSearchParamsSchema = z.object({
  projectRoot: projectRootSchema.optional(),
  query: z.string().min(1).max(10_000),
  filter: timelineFilterSchema,
  limit: z.number().int().min(1).max(TIMELINE_SEARCH_MAX),
  scope: timelineSearchScopeSchema.optional(),
}) satisfies z.ZodType<TimelineSearchParams>;

/** viewProtocol's TimelinePageParams: one page of the timeline. */
export const timelinePageParamsSchema = z.object({
  projectRoot: projectRootSchema.optional(),
  filter: timelineFilterSchema,
  cursor: timelineCursorSchema.nullable(),
  limit: z.number().int().min(1).max(1000),
}) satisfies z.ZodType<TimelinePageParams>;

/** The agent sessions of a project (default: the first open one). */
export const agentSessionsParamsSchema = z.object({ projectRoot: projectRootSchema.optional() });

/** The actions a memory card sends as `action` ("Copy as context" is a call of its own there). */
const CARD_ACTIONS = [
  z.object({ type: z.literal('pin'), pin: z.enum(PIN_LEVELS) }),
  z.object({ type: z.literal('forget') }),
  z.object({ type: z.literal('restore') }),
  z.object({ type: z.literal('archive') }),
  z.object({ type: z.literal('edit'), title: z.string().max(1000), body: z.string().max(1_000_000).optional(), why: z.string().max(10_000).nullable().optional() }),
  z.object({ type: z.literal('share') }),
  z.object({ type: z.literal('unshare') }),
] as const;

/** What a webview's memory card may ask of a memory (the extension checks it). */
export const cardActionSchema = z.discriminatedUnion('type', [...CARD_ACTIONS]);

/** viewProtocol's MemoryAction: what the memory server takes (the card's actions and copy). */
export const memoryActionSchema = z.discriminatedUnion('type', [...CARD_ACTIONS, z.object({ type: z.literal('copy') })]) satisfies z.ZodType<MemoryAction>;
