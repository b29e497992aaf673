import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MEMORY_KINDS, MEMORY_STATUSES } from '../../memory/types';
import type { ToolContext } from '../toolContext';
import { toolResult } from '../toolResult';

const output = z.object({
  project: z.string(),
  databaseFile: z.string(),
  schemaVersion: z.number().int(),
  total: z.number().int(),
  byStatus: z.record(z.enum(MEMORY_STATUSES), z.number().int()),
  /** Active memories only. */
  byKind: z.record(z.enum(MEMORY_KINDS), z.number().int()),
  pinned: z.object({ soft: z.number().int(), hard: z.number().int() }),
  sessions: z.number().int(),
});

export function registerStatsTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'stats',
    {
      title: 'Memory stats',
      description: 'How much this project\'s memory holds: counts by status (active, archived, forgotten), active memories by kind, pins, agent sessions seen, and where the database is. Cheap (about 100 tokens); call it to see whether there is memory worth searching.',
      inputSchema: z.strictObject({}),
      outputSchema: output,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    () =>
      ctx.answer('stats', () => {
        const { project } = ctx;
        const counts = project.store.counts();
        const kinds = Object.entries(counts.byKind).filter(([, n]) => n > 0).map(([kind, n]) => `${kind} ${n}`);
        const text = [
          `${counts.byStatus.active} active memories in ${project.root}${kinds.length ? `: ${kinds.join(', ')}` : ''}.`,
          `${counts.byStatus.archived} archived, ${counts.byStatus.forgotten} forgotten; pinned: ${counts.pinned.hard} hard, ${counts.pinned.soft} soft; ${counts.sessions} agent sessions.`,
        ].join('\n');
        return toolResult(text, { project: project.root, databaseFile: project.databaseFile, schemaVersion: project.store.schemaVersion(), ...counts });
      }),
  );
}
