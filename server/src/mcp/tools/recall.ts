import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { hubSettings } from '../../hub/hubSettings';
import { recallTeam } from '../../hub/teamRecall';
import { answerRecall } from '../../recall/answerRecall';
import { estimateTokens } from '../../recall/tokens';
import { fileArg, kindsArg, projectFile, symbolArg } from '../arguments';
import { memoryLines, memoryOutput, memoryOutputOf } from '../memoryView';
import type { ToolContext } from '../toolContext';
import { toolResult, ToolInputError } from '../toolResult';

const DEFAULT_LIMIT = 8;

const input = z.strictObject({
  query: z.string().max(10_000, { error: 'query is limited to 10,000 characters' }).optional().describe('What you want to know: a question, words, identifiers'),
  file: fileArg.optional().describe('The file you are working on: its memories and the constraints that govern it rank first'),
  line: z.number().int().min(1).optional().describe('1-based line in `file`: the declaration around it counts as the symbol'),
  symbol: symbolArg.optional(),
  kinds: kindsArg.optional(),
  limit: z.number().int().min(1).max(50).optional().describe(`How many memories, at most (default ${DEFAULT_LIMIT}, up to 50)`),
  includeArchived: z.boolean().optional().describe('Also search archived memories (ranked lower)'),
  scope: z.enum(['project', 'team']).optional().describe('"team": search the team hub (every teammate\'s shared memories of this project) instead of this machine\'s memory; needs `query`'),
});

const output = z.object({
  /** The declaration at `line`, when one was found. */
  symbol: z.string().nullable(),
  results: z.array(memoryOutput.extend({ score: z.number(), reasons: z.array(z.string()) })),
});

export function registerRecallTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'recall',
    {
      title: 'Recall project memory',
      description: [
        "Search this project's memory: decisions, constraints, gotchas, facts and notes that people and agents recorded, and why code changed (diffs).",
        'Call it before changing code you have not seen in this session, when you wonder why something is the way it is, or before deciding something that may have been decided already.',
        'Give a query, a file (optionally with a line), a symbol, or a mix; with none, the most recent memories come back.',
        `Returns up to \`limit\` (default ${DEFAULT_LIMIT}) memories, best first, each about 100–150 tokens: id, kind, title, why, where it applies, date, a one-line excerpt and why it ranked.`,
        'Call `get` with an id for the full text or a diff. For the rules that govern a file, `constraints` is the complete list.',
      ].join(' '),
      inputSchema: input,
      outputSchema: output,
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      ctx.answer('recall', async () => {
        const { project } = ctx;
        if (args.line !== undefined && args.file === undefined) throw new ToolInputError('`line` needs `file`');
        if (args.scope === 'team') {
          if (!args.query?.trim()) throw new ToolInputError('`scope: "team"` searches the team hub for words: give `query`');
          const settings = hubSettings();
          if (!settings) throw new ToolInputError('no team hub is configured (engram.team.url or ENGRAM_TEAM_URL)');
          const found = await recallTeam(settings, project.root, args.query, { allProjects: false, limit: args.limit ?? DEFAULT_LIMIT });
          const results = found.map(({ hit, memory }) => ({ ...memoryOutputOf(memory), score: hit.score, reasons: [`text ${hit.explanation.text.toFixed(3)}`, `names ${hit.explanation.names.toFixed(3)}`] }));
          const heading = found.length ? `${found.length} team ${found.length === 1 ? 'memory' : 'memories'} from the hub, best first:` : 'No team memories match.';
          return toolResult([heading, ...found.map(({ memory }) => memoryLines(memory))].join('\n'), { symbol: null, results });
        }
        const file = args.file === undefined ? undefined : projectFile(project, args.file);
        const answer = await answerRecall(project, {
          query: args.query,
          file,
          line: args.line === undefined ? undefined : args.line - 1,
          symbol: args.symbol,
          kinds: args.kinds,
          includeArchived: args.includeArchived,
          limit: args.limit ?? DEFAULT_LIMIT,
        });
        const results = answer.results.map((r) => ({
          ...memoryOutputOf(r.memory),
          score: r.score,
          reasons: r.explanation.map((p) => p.reason),
        }));
        // Given to an agent: shown (recall's usage score), and logged for the session so hooks do not repeat it.
        const ids = answer.results.map((r) => r.memory.id);
        project.usage.shown(ids);
        const lines = answer.results.map((r) => memoryLines(r.memory));
        if (ctx.sessionId && ids.length) project.injections.log(ctx.sessionId, 'mcp-recall', answer.results.map((r, i) => ({ memoryId: r.memory.id, tokens: estimateTokens(lines[i]!) })));
        const heading = answer.results.length
          ? `${answer.results.length} ${answer.results.length === 1 ? 'memory' : 'memories'}, best first${answer.symbol ? ` (symbol at the line: ${answer.symbol})` : ''}:`
          : 'No memories match. Nothing is recorded about this yet; `remember` what you learn.';
        return toolResult([heading, ...lines].join('\n'), { symbol: answer.symbol, results });
      }),
  );
}
