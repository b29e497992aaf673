import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { UnknownMemoryError } from '../../actions/errors';
import { memoryIdArg } from '../arguments';
import { fullMemoryOf, fullMemoryOutput, fullMemoryText } from '../fullMemory';
import type { ToolContext } from '../toolContext';
import { toolResult } from '../toolResult';

export function registerGetTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'get',
    {
      title: 'Get a memory',
      description: [
        'Read one memory in full by id (from recall, constraints, timeline or remember): its whole text, why, where it applies, and for a diff memory the patch and its earlier revisions; plus its links (the change it revises, the summary it was folded into).',
        'Call it when a one-line excerpt is not enough. Usually 100–1,000 tokens; a large diff can reach about 15,000 (bodies are cut at 50,000 characters).',
      ].join(' '),
      inputSchema: z.strictObject({ id: memoryIdArg }),
      outputSchema: z.object({ memory: fullMemoryOutput }),
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      ctx.answer('get', () => {
        const { project } = ctx;
        const memory = project.store.get(args.id);
        if (!memory) throw new UnknownMemoryError([args.id]);
        // Fetched on purpose by an agent: acted on (recall's usage score, eviction's value).
        project.usage.acted(memory.id);
        const full = fullMemoryOf(project, memory);
        return toolResult(fullMemoryText(memory, full), { memory: full });
      }),
  );
}
