import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { forget, restore, type MemoryState, type StatusChange } from '../../actions/status';
import { MEMORY_KINDS, MEMORY_STATUSES } from '../../memory/types';
import { memoryIdsArg } from '../arguments';
import type { ToolContext } from '../toolContext';
import { toolResult } from '../toolResult';

const stateOutput = z.object({ id: z.string(), kind: z.enum(MEMORY_KINDS), title: z.string(), status: z.enum(MEMORY_STATUSES) });

const output = z.object({
  status: z.enum(MEMORY_STATUSES),
  /** Moved; `status` is where each was before. */
  changed: z.array(stateOutput),
  /** Already there. */
  unchanged: z.array(stateOutput),
  /** How to take it back. */
  undo: z.string().nullable(),
});

function stateOf(state: MemoryState): z.infer<typeof stateOutput> {
  return { id: state.id, kind: state.kind, title: state.title, status: state.status };
}

function lines(change: StatusChange, done: string, already: string): string[] {
  return [
    ...change.changed.map((m) => `${done} ${m.id} [${m.kind}] ${m.title}${change.to === 'active' ? ` (was ${m.status})` : ''}`),
    ...change.unchanged.map((m) => `${m.id} ${already}`),
  ];
}

export function registerLifecycleTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'forget',
    {
      title: 'Forget memories',
      description: [
        'Forget memories that are wrong or obsolete, so no agent is given them again. Soft and undoable: they are kept, out of recall and context, until the user purges them;',
        '`restore` with the same ids (or `engram restore ID…`) brings them back. Works on pinned memories too. If any id is unknown nothing is changed.',
        'Returns one line per memory. Prefer remembering the correction as well, so the next agent knows what is true now.',
      ].join(' '),
      inputSchema: z.strictObject({ ids: memoryIdsArg }),
      outputSchema: output,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      ctx.answer('forget', () => {
        const change = forget(ctx.project, args.ids);
        const undo = change.changed.length ? `call restore with ids ${JSON.stringify(change.changed.map((m) => m.id))}, or run: engram restore ${change.changed.map((m) => m.id).join(' ')}` : null;
        const text = [...lines(change, 'Forgot', 'was already forgotten'), ...(undo ? [`Undo: ${undo}`] : [])].join('\n');
        return toolResult(text, { status: change.to, changed: change.changed.map(stateOf), unchanged: change.unchanged.map(stateOf), undo });
      }),
  );

  server.registerTool(
    'restore',
    {
      title: 'Restore memories',
      description: 'Bring forgotten or archived memories back to active (undoes `forget`). If any id is unknown nothing is changed. Returns one line per memory.',
      inputSchema: z.strictObject({ ids: memoryIdsArg }),
      outputSchema: output,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      ctx.answer('restore', () => {
        const change = restore(ctx.project, args.ids);
        return toolResult(lines(change, 'Restored', 'is already active').join('\n'), {
          status: change.to,
          changed: change.changed.map(stateOf),
          unchanged: change.unchanged.map(stateOf),
          undo: null,
        });
      }),
  );
}
