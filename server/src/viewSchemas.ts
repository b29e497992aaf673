import { z } from 'zod';
import { MEMORY_KINDS, MEMORY_SOURCES, MEMORY_STATUSES } from './memory/types';

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
