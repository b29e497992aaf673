import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { fileArg, kindsArg, projectFile } from '../arguments';
import { isoDate, memoryLines, memoryOutput, memoryOutputOf } from '../memoryView';
import type { ToolContext } from '../toolContext';
import { toolResult, ToolInputError } from '../toolResult';

const DEFAULT_LIMIT = 20;
const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** "2025-05-01", "2025-05-01T14:00:00Z", or a span back from now: "90m", "12h", "3d", "2w". */
export function parseSince(since: string, now: number): number {
  const relative = /^\s*(\d+(?:\.\d+)?)\s*([mhdw])\s*$/i.exec(since);
  if (relative) {
    const start = now - Number(relative[1]) * UNIT_MS[relative[2]!.toLowerCase()]!;
    // A span reaching back before the first date a Date can hold (271,821 BC) names no time at all.
    if (Number.isNaN(new Date(start).getTime())) throw new ToolInputError(`since "${since}" reaches back before any date; leave it out to get everything`);
    return start;
  }
  const absolute = /^\d{4}-\d{2}-\d{2}/.test(since.trim()) ? Date.parse(since.trim()) : NaN;
  if (Number.isNaN(absolute)) throw new ToolInputError(`since must be an ISO date or time ("2025-05-01", "2025-05-01T14:00:00Z") or a span back from now ("12h", "3d", "2w"), not "${since}"`);
  return absolute;
}

const input = z.strictObject({
  since: z.string().max(100).optional().describe('Only memories updated since: an ISO date or time, or a span back from now such as "12h", "3d", "2w"'),
  file: fileArg.optional().describe('Only memories about this file, or about anything under this folder'),
  session: z.string().min(1).max(200).optional().describe('Only memories made in this agent session (a Claude Code session id)'),
  kinds: kindsArg.optional(),
  limit: z.number().int().min(1).max(200).optional().describe(`At most this many (default ${DEFAULT_LIMIT}, up to 200)`),
});

const output = z.object({ memories: z.array(memoryOutput), since: z.string().nullable() });

export function registerTimelineTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'timeline',
    {
      title: 'Timeline of memories',
      description: [
        'What happened in this project, newest first: code changes with their reasons (diffs), decisions, constraints, notes from people and agents. Archived memories are included (marked); forgotten ones are not.',
        'Call it to catch up after a break or a context compaction ("since": "1d"), or to see the history of one file.',
        `Filters: since, file, session, kinds. Returns up to \`limit\` (default ${DEFAULT_LIMIT}) memories, about 100–150 tokens each; \`get\` an id for its full text or diff.`,
      ].join(' '),
      inputSchema: input,
      outputSchema: output,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      ctx.answer('timeline', () => {
        const { project } = ctx;
        const since = args.since === undefined ? undefined : parseSince(args.since, Date.now());
        const file = args.file === undefined ? undefined : projectFile(project, args.file);
        // Newest first, so the rows updated since `since` are the start of the page.
        const rows = project.timeline.page({ statuses: ['active', 'archived'], kinds: args.kinds, path: file, sessionId: args.session, limit: args.limit ?? DEFAULT_LIMIT });
        const memories = project.store.reads.byRowids(rows.filter((r) => since === undefined || r.updatedAt >= since).map((r) => r.rowid));
        const filters = [since === undefined ? '' : `since ${isoDate(since)}`, file ? `about ${file}` : '', args.session ? `from session ${args.session}` : ''].filter(Boolean).join(', ');
        const heading = memories.length
          ? `${memories.length} ${memories.length === 1 ? 'memory' : 'memories'}${filters ? ` ${filters}` : ''}, newest first:`
          : `No memories${filters ? ` ${filters}` : ''}.`;
        return toolResult([heading, ...memories.map((m) => memoryLines(m))].join('\n'), {
          memories: memories.map(memoryOutputOf),
          since: since === undefined ? null : isoDate(since),
        });
      }),
  );
}
