import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { anchorLines } from '../../anchors/anchorFromText';
import { restore } from '../../actions/status';
import { checkGlob } from '../../constraints/pinConstraint';
import { isRuleCandidate } from '../../memory/ruleCandidate';
import type { Anchor, Memory, PinLevel } from '../../memory/types';
import type { Project } from '../../project';
import { AGENT_KINDS, fileArg, projectFile, symbolArg } from '../arguments';
import { labelOf, memoryLines, memoryOutput, memoryOutputOf } from '../memoryView';
import { findNearDuplicate } from '../nearDuplicate';
import { shareAfter, sharedArg } from '../teamShare';
import type { ToolContext } from '../toolContext';
import { toolResult, ToolInputError } from '../toolResult';

export const TEXT_MAX = 16_000;
const TITLE_MAX = 120;
const PIN_ORDER: Readonly<Record<PinLevel, number>> = { none: 0, soft: 1, hard: 2 };
/** Hard pins must hold; soft pins rank first; an agent's deliberate note is worth the default. */
const IMPORTANCE: Readonly<Record<PinLevel, number>> = { hard: 1, soft: 0.8, none: 0.5 };

const input = z.strictObject({
  text: z
    .string()
    .max(TEXT_MAX, { error: `text is limited to ${TEXT_MAX.toLocaleString('en')} characters: store the gist and name the files it is about` })
    .refine((t) => t.trim().length > 0, { error: 'text is empty' })
    .describe('The memory itself, self-contained: what is true or was decided, in one to a few sentences'),
  kind: z
    .enum(AGENT_KINDS, { error: `kind must be one of ${AGENT_KINDS.join(', ')}` })
    .describe('decision: a choice made and why; constraint: a rule code must follow; gotcha: a trap found the hard way; fact: how something works; note: anything else'),
  title: z.string().max(200).optional().describe('Short headline (default: the first line of text)'),
  why: z.string().max(4000).optional().describe('The reason behind it, if text does not already say'),
  files: z.array(fileArg).max(50).optional().describe('Files it is about; a constraint with files governs only them'),
  symbols: z.array(symbolArg).max(50).optional().describe('Declarations it is about, e.g. ["OrderService.cancel"]'),
  lines: z
    .strictObject({ start: z.number().int().min(1), end: z.number().int().min(1) })
    .optional()
    .describe('Pin it to these 1-based lines of the one file in `files`: it follows the code as it is edited'),
  glob: z.string().max(1000).optional().describe('Instead of files: every project file matching this glob, e.g. "src/db/**/*.ts"'),
  pin: z.enum(['hard', 'soft'], { error: 'pin must be hard or soft' }).optional().describe('hard: always given where it applies, never archived; soft: ranked first. Use for rules that must hold'),
  shared: sharedArg,
});

const output = z.object({
  /** False when a near-identical memory already existed and was returned instead. */
  created: z.boolean(),
  memory: memoryOutput,
});

function titleOf(text: string): string {
  const firstLine = text.trim().split('\n')[0]!.trim();
  return firstLine.length > TITLE_MAX ? `${firstLine.slice(0, TITLE_MAX - 1)}…` : firstLine;
}

function anchorFor(project: Project, files: readonly string[], lines: { start: number; end: number }): Omit<Anchor, 'stale'> {
  if (files.length !== 1) throw new ToolInputError('`lines` needs exactly one file in `files`');
  if (lines.end < lines.start) throw new ToolInputError(`lines.end (${lines.end}) is before lines.start (${lines.start})`);
  const file = files[0]!;
  let text: string;
  try {
    text = readFileSync(path.join(project.root, file), 'utf8');
  } catch (error) {
    throw new ToolInputError(`cannot read ${file} to pin lines ${lines.start}–${lines.end}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return anchorLines(file, text, lines.start - 1, lines.end - 1);
  } catch (error) {
    throw new ToolInputError((error as Error).message);
  }
}

/**
 * Stores what an agent chose to remember, or returns the near-identical memory already there
 * (restored if archived, its pin raised if a stronger one was asked for). Checking and writing
 * are one write transaction, so two agents remembering the same thing at once store it once.
 */
function remember(ctx: ToolContext, args: z.infer<typeof input>): { created: boolean; memory: Memory } {
  const { project } = ctx;
  const files = (args.files ?? []).map((f) => projectFile(project, f));
  const anchor = args.lines ? anchorFor(project, files, args.lines) : null;
  if (args.glob !== undefined && files.length) throw new ToolInputError('give either `files` or `glob`, not both');
  // checkGlob's PinError is an input error too: the model is told what to change.
  const glob = args.glob === undefined ? null : checkGlob(args.glob);
  const text = args.text.trim();
  const pin: PinLevel = args.pin ?? 'none';
  return project.lifecycle.transaction(() => {
    const existing = findNearDuplicate(project, { kind: args.kind, text: project.redactor.text(text), files, glob, anchor });
    if (!existing) {
      const memory = project.store.add({
        kind: args.kind,
        // Redacted before its first line is cut into a title: a cut secret is not recognized.
        title: args.title?.trim() || titleOf(project.redactor.text(text)),
        body: text,
        why: args.why?.trim() || null,
        source: 'mcp',
        sessionId: ctx.sessionId,
        pin,
        importance: IMPORTANCE[pin],
        files,
        symbols: args.symbols ?? [],
        anchor,
        meta: glob ? { glob } : {},
      });
      return { created: true, memory };
    }
    if (existing.status !== 'active') restore(project, [existing.id]);
    else project.usage.acted(existing.id);
    // A rule candidate keeps its place: only a person accepts it (actions/pin.ts).
    if (PIN_ORDER[pin] > PIN_ORDER[existing.pin] && !isRuleCandidate(existing)) project.store.setPin(existing.id, pin);
    return { created: false, memory: project.store.get(existing.id)! };
  });
}

export function registerRememberTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'remember',
    {
      title: 'Remember',
      description: [
        'Store something worth knowing in a later session or by another agent: a decision and its reason, a rule the code must follow (constraint), a gotcha, a fact about how the project works.',
        'Call it when you learn or decide something that is not obvious from the code; not for progress notes or things the code already says.',
        'Tie it to `files` and `symbols` so it comes back when that code is touched; a constraint with `pin: "hard"` is always given to agents working on its files.',
        `Text up to ${TEXT_MAX.toLocaleString('en')} characters. Returns the stored memory with its id (about 150 tokens); if a near-identical memory exists (same kind, text and files), that one is returned with created: false instead of a duplicate.`,
      ].join(' '),
      inputSchema: input,
      outputSchema: output,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      ctx.answer('remember', () => {
        const remembered = remember(ctx, args);
        const { created } = remembered;
        const memory = args.shared ? shareAfter(ctx.project, remembered.memory, true) : remembered.memory;
        const text = created
          ? `Remembered ${memory.id} ${labelOf(memory)}.\n${memoryLines(memory)}`
          : `Already remembered as ${memory.id} ${labelOf(memory)} (near-identical); not stored again.\n${memoryLines(memory)}`;
        return toolResult(text, { created, memory: memoryOutputOf(memory) });
      }),
  );
}
