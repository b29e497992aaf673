import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { pinMemory } from '../../actions/pin';
import { memoryIdArg } from '../arguments';
import { sharedAfterAction, sharedArg } from '../teamShare';
import { labelOf, memoryLines, memoryOutput, memoryOutputOf } from '../memoryView';
import type { ToolContext } from '../toolContext';
import { toolResult } from '../toolResult';

const output = z.object({ memory: memoryOutput, changed: z.boolean() });

export function registerPinTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'pin',
    {
      title: 'Pin a memory',
      description: [
        'Pin a memory so it is not lost: "hard" (default) means it is always given to agents where it applies and never archived — use it for rules that must hold;',
        '"soft" ranks it first but lets budgets cut it. Takes an id from recall, constraints, timeline or remember. Returns the memory (about 150 tokens).',
      ].join(' '),
      inputSchema: z.strictObject({
        id: memoryIdArg,
        level: z.enum(['hard', 'soft'], { error: 'level must be hard or soft' }).optional().describe('hard (default) or soft'),
        shared: sharedArg,
      }),
      outputSchema: output,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      ctx.answer('pin', () => {
        // An agent pins: rule candidates are refused (actions/pin.ts).
        const pinned = pinMemory(ctx.project, args.id, args.level ?? 'hard', 'agent');
        const { changed } = pinned;
        const memory = sharedAfterAction(ctx.project, pinned, args.shared);
        const text = changed ? `Pinned ${memory.id} ${labelOf(memory)}.` : `${memory.id} was already ${memory.pin}-pinned.`;
        return toolResult(`${text}\n${memoryLines(memory)}`, { memory: memoryOutputOf(memory), changed });
      }),
  );

  server.registerTool(
    'unpin',
    {
      title: 'Unpin a memory',
      description: 'Remove a memory\'s pin: it stays in memory and in recall, ranked like any other. Use when a pinned rule no longer needs to be forced on every agent. Returns the memory (about 150 tokens).',
      inputSchema: z.strictObject({ id: memoryIdArg }),
      outputSchema: output,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      ctx.answer('unpin', () => {
        const unpinned = pinMemory(ctx.project, args.id, 'none', 'agent');
        const { changed } = unpinned;
        const memory = sharedAfterAction(ctx.project, unpinned, false);
        const text = changed ? `Unpinned ${memory.id} ${labelOf(memory)}.` : `${memory.id} was not pinned.`;
        return toolResult(`${text}\n${memoryLines(memory)}`, { memory: memoryOutputOf(memory), changed });
      }),
  );
}
