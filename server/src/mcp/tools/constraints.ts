import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { keptGoverningConstraints } from '../../constraints/governing';
import { scopeOf } from '../../constraints/scope';
import { isRuleCandidate } from '../../memory/ruleCandidate';
import type { Memory } from '../../memory/types';
import type { Project } from '../../project';
import { fileArg, projectFile, symbolArg } from '../arguments';
import { memoryLines, memoryOutput, memoryOutputOf } from '../memoryView';
import type { ToolContext } from '../toolContext';
import { toolResult } from '../toolResult';

const DEFAULT_LIMIT = 50;
const PIN_ORDER = { hard: 0, soft: 1, none: 2 } as const;

const input = z.strictObject({
  file: fileArg.optional().describe('The file you are about to change'),
  symbol: symbolArg.optional().describe('A declaration, e.g. "OrderService.cancel": its own rules, its container\'s and its members\''),
  limit: z.number().int().min(1).max(500).optional().describe(`At most this many (default ${DEFAULT_LIMIT})`),
});

const output = z.object({
  constraints: z.array(memoryOutput.extend({ stale: z.boolean() })),
  /** More applied than `limit` allowed. */
  truncated: z.boolean(),
});

/** The declaration and the ones that contain it: `A.b.c` → `A.b.c`, `A.b`, `A`. */
function symbolAndContainers(symbol: string): string[] {
  const parts = symbol.split('.');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('.'));
}

function relatesTo(memory: Memory, symbol: string): boolean {
  return memory.symbols.some((s) => s === symbol || symbol.startsWith(`${s}.`) || s.startsWith(`${symbol}.`));
}

/** Constraints tagged with the symbol, a container of it or a member of it, plus project-wide ones. */
function symbolConstraints(project: Project, symbol: string): Memory[] {
  const rowids = new Set<number>();
  for (const name of symbolAndContainers(symbol)) for (const rowid of project.store.reads.rowidsForSymbol(name, 200)) rowids.add(rowid);
  const tagged = project.store.reads.byRowids([...rowids]).filter((m) => m.kind === 'constraint' && m.status === 'active' && relatesTo(m, symbol));
  const projectWide = project.store.untaggedConstraints().filter((m) => scopeOf(m).kind === 'project');
  return [...tagged, ...projectWide];
}

/**
 * The constraints that apply: to a file (every one that governs it), to a symbol, or to a symbol
 * of a file (the file's, less those tied to other symbols of it); with neither, all of them.
 * Stale pinned code stays in the list, flagged: a rule whose code is gone is still a rule.
 */
function applicable(project: Project, file: string | undefined, symbol: string | undefined, limit: number): Memory[] {
  let found: Memory[];
  if (file) {
    found = [...keptGoverningConstraints(project.store, file)];
    if (symbol) found = found.filter((m) => !m.symbols.length || relatesTo(m, symbol));
  } else if (symbol) {
    found = symbolConstraints(project, symbol);
  } else {
    found = project.store.reads.byRowids(project.lists.activeConstraints(limit + 1));
  }
  // Rule candidates are not rules until a person accepts them.
  const unique = [...new Map(found.filter((m) => !isRuleCandidate(m)).map((m) => [m.id, m])).values()];
  return unique.sort((a, b) => PIN_ORDER[a.pin] - PIN_ORDER[b.pin] || a.createdAt - b.createdAt).slice(0, limit + 1);
}

export function registerConstraintsTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'constraints',
    {
      title: 'Constraints that apply',
      description: [
        'List the rules recorded for this project that code must follow (constraints), for a file, a symbol, or a symbol in a file; with neither, every active one.',
        'Call it before editing a file, and follow what it returns: hard-pinned rules must hold.',
        'Includes rules for the whole project and for globs that match the file. A rule pinned to code that has since been deleted is still listed, marked stale.',
        `Returns up to \`limit\` (default ${DEFAULT_LIMIT}), hard pins first, each about 100–150 tokens with id, rule, why and where it applies.`,
      ].join(' '),
      inputSchema: input,
      outputSchema: output,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      ctx.answer('constraints', () => {
        const { project } = ctx;
        const file = args.file === undefined ? undefined : projectFile(project, args.file);
        const limit = args.limit ?? DEFAULT_LIMIT;
        const found = applicable(project, file, args.symbol, limit);
        const truncated = found.length > limit;
        const constraints = found.slice(0, limit);
        const target = [args.symbol, file].filter(Boolean).join(' in ') || 'this project';
        const heading = constraints.length
          ? `${constraints.length} ${constraints.length === 1 ? 'constraint applies' : 'constraints apply'} to ${target}${truncated ? ` (more exist: raise limit)` : ''}, hard pins first:`
          : `No constraints are recorded for ${target}.`;
        const stale = constraints.filter((c) => c.anchor?.stale).length;
        const note = stale ? [`${stale} of them ${stale === 1 ? 'is' : 'are'} stale: the pinned code is gone; the rule may need re-pinning or forgetting.`] : [];
        return toolResult([heading, ...constraints.map((c) => memoryLines(c)), ...note].join('\n'), {
          constraints: constraints.map((c) => ({ ...memoryOutputOf(c), stale: c.anchor?.stale ?? false })),
          truncated,
        });
      }),
  );
}
