import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { UnknownMemoryError } from '../../capacity/lifecycle';
import { isRuleCandidate } from '../../memory/ruleCandidate';
import type { Memory, PinLevel } from '../../memory/types';
import type { Project } from '../../project';
import { memoryIdArg } from '../arguments';
import { shareAfter, sharedArg } from '../teamShare';
import { labelOf, memoryLines, memoryOutput, memoryOutputOf } from '../memoryView';
import type { ToolContext } from '../toolContext';
import { toolResult, ToolInputError } from '../toolResult';

const output = z.object({ memory: memoryOutput, changed: z.boolean() });

/**
 * Sets a memory's pin and counts it as acted on, in one transaction. Only active memories are
 * pinned: an archived hard pin would break "hard pins are never archived", and a forgotten one is put away.
 * Rule candidates are refused: only a person accepts one as a rule (acceptRule.ts).
 */
function setPin(project: Project, id: string, pin: PinLevel): { memory: Memory; changed: boolean } {
  return project.lifecycle.transaction(() => {
    const before = project.store.get(id);
    if (!before) throw new UnknownMemoryError([id]);
    if (pin !== 'none' && before.status !== 'active') throw new ToolInputError(`${id} is ${before.status}; restore it first (the restore tool), then pin it`);
    // Pinning accepts a candidate as a rule, and that is a person's call, not an agent's.
    if (pin !== 'none' && isRuleCandidate(before)) throw new ToolInputError(`${id} is a rule candidate Engram extracted from a prompt; only a person accepts it as a rule (Pin in the Engram panel, or \`engram pin ${id}\`). Ask the user if it should hold`);
    if (before.pin === pin) return { memory: before, changed: false };
    const memory = project.store.setPin(id, pin)!;
    project.usage.acted(id);
    return { memory, changed: true };
  });
}

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
        const pinned = setPin(ctx.project, args.id, args.level ?? 'hard');
        const { changed } = pinned;
        const memory = changed || args.shared ? shareAfter(ctx.project, pinned.memory, args.shared) : pinned.memory;
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
        const unpinned = setPin(ctx.project, args.id, 'none');
        const { changed } = unpinned;
        const memory = changed ? shareAfter(ctx.project, unpinned.memory, false) : unpinned.memory;
        const text = changed ? `Unpinned ${memory.id} ${labelOf(memory)}.` : `${memory.id} was not pinned.`;
        return toolResult(`${text}\n${memoryLines(memory)}`, { memory: memoryOutputOf(memory), changed });
      }),
  );
}
