import { z } from 'zod';
import { MEMORY_KINDS, MEMORY_SOURCES, MEMORY_STATUSES } from './memory/types';
import type { TimelineSearchParams, TimelineSearchScope } from './viewProtocol';

// Parts of the memory panel's and timeline's messages (viewProtocol.ts) checked on receipt by
// both ends: by the extension, from its webviews, and by the memory server, from the extension.

export const projectRootSchema = z.string().min(1).max(4096);

/** One memory of one project. */
export const memoryRefSchema = z.object({ projectRoot: projectRootSchema, id: z.string().min(1).max(200) });

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
