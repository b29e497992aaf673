import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { MEMORY_KINDS, type MemoryKind } from '../../memory/types';
import type { Project } from '../../project';
import { answerRecall, RecallInputError, type RecallAnswer, type RecallQuery } from '../../recall/answerRecall';
import { CliError, integerOption, listOption, stringOption, UsageError, type CliIO, type Command } from '../command';
import { projectOptionSpec, projectPathOf, withProject } from '../projectOption';
import { runTeamRecall } from '../teamRecall';

const MAX_LIMIT = 1000;
const MAX_BUDGET = 1_000_000;

/** One line of `--batch`: the same fields as the flags (line 1-based). */
const batchLine = z.strictObject({
  query: z.string().max(1_000_000).optional(),
  file: z.string().optional(),
  line: z.number().int().min(1).optional(),
  symbol: z.string().optional(),
  session: z.string().optional(),
  budget: z.number().int().min(0).max(MAX_BUDGET).optional(),
  limit: z.number().int().min(1).max(MAX_LIMIT).optional(),
  kinds: z.array(z.enum(MEMORY_KINDS)).optional(),
  archived: z.boolean().optional(),
  id: z.unknown().optional(),
});

function kindsOf(values: readonly string[]): MemoryKind[] | undefined {
  if (!values.length) return undefined;
  const kinds = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  const unknown = kinds.filter((k) => !(MEMORY_KINDS as readonly string[]).includes(k));
  if (unknown.length) throw new UsageError(`--kind takes ${MEMORY_KINDS.join(', ')}; not ${unknown.join(', ')}`);
  return kinds as MemoryKind[];
}

function payload(answer: RecallAnswer, explain: boolean) {
  return {
    symbol: answer.symbol,
    results: answer.results.map((r) => ({ ...r.memory, score: r.score, ...(explain ? { explanation: r.explanation } : {}) })),
    ...(answer.context ? { context: { text: answer.context.text, tokens: answer.context.tokens, ids: answer.context.items.map((i) => i.memory.id), leftOut: answer.context.leftOut } } : {}),
  };
}

async function runBatch(project: Project, io: CliIO, file: string, explain: boolean): Promise<number> {
  let text: string;
  try {
    text = file === '-' ? readFileSync(0, 'utf8') : readFileSync(path.resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let failures = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (!raw) continue;
    try {
      const parsed = batchLine.parse(JSON.parse(raw));
      const query: RecallQuery = {
        query: parsed.query,
        file: parsed.file === undefined ? undefined : projectPathOf(project, io, parsed.file),
        line: parsed.line === undefined ? undefined : parsed.line - 1,
        symbol: parsed.symbol,
        sessionId: parsed.session,
        budget: parsed.budget,
        limit: parsed.limit ?? 10,
        kinds: parsed.kinds,
        includeArchived: parsed.archived,
      };
      io.out(`${JSON.stringify({ line: i + 1, ...(parsed.id === undefined ? {} : { id: parsed.id }), ok: true, ...payload(await answerRecall(project, query), explain) })}\n`);
    } catch (error) {
      failures++;
      const message = error instanceof z.ZodError ? error.issues.map((x) => `${x.path.join('.') || 'query'}: ${x.message}`).join('; ') : (error as Error).message;
      io.out(`${JSON.stringify({ line: i + 1, ok: false, error: message })}\n`);
    }
  }
  if (failures) io.err(`engram: ${failures} of the queries in ${file} failed (see their "error")\n`);
  return failures ? 1 : 0;
}

export const recallCommand: Command = {
  name: 'recall',
  summary: 'the memories that matter for a file, line and/or query, best first (--budget: as agent context)',
  usage: '[--file F] [--line N] [--query Q] [--symbol S] [--kind K]… [--session ID] [--budget TOKENS] [--limit N] [--archived] [--explain] [--json] | --batch QUERIES.jsonl | --team --query Q [--all-projects]',
  options: {
    ...projectOptionSpec,
    file: { type: 'string' },
    line: { type: 'string' },
    query: { type: 'string' },
    symbol: { type: 'string' },
    kind: { type: 'string', multiple: true },
    session: { type: 'string' },
    budget: { type: 'string' },
    limit: { type: 'string' },
    archived: { type: 'boolean' },
    explain: { type: 'boolean' },
    json: { type: 'boolean' },
    batch: { type: 'string' },
    team: { type: 'boolean' },
    'all-projects': { type: 'boolean' },
  },
  positionals: { min: 0, max: 0 },
  run(args, io) {
    const explain = args.values.explain === true;
    const limit = integerOption(args, 'limit', { min: 1, max: MAX_LIMIT }) ?? 10;
    const line = integerOption(args, 'line', { min: 1, max: 10_000_000 });
    const budget = integerOption(args, 'budget', { min: 0, max: MAX_BUDGET });
    const kinds = kindsOf(listOption(args, 'kind'));
    const batch = stringOption(args, 'batch');
    if (line !== undefined && stringOption(args, 'file') === undefined) throw new UsageError('--line needs --file');
    return withProject(args, io, async (project) => {
      if (batch !== undefined) return runBatch(project, io, batch, explain);
      // The team hub instead of the local store (docs/team.md): words only.
      if (args.values.team === true) return runTeamRecall(project, io, { query: stringOption(args, 'query'), limit, allProjects: args.values['all-projects'] === true, explain, json: args.values.json === true });
      const fileArg = stringOption(args, 'file');
      const query: RecallQuery = {
        query: stringOption(args, 'query'),
        file: fileArg === undefined ? undefined : projectPathOf(project, io, fileArg),
        line: line === undefined ? undefined : line - 1,
        symbol: stringOption(args, 'symbol'),
        sessionId: stringOption(args, 'session'),
        budget,
        limit,
        kinds,
        includeArchived: args.values.archived === true,
      };
      let answer: RecallAnswer;
      try {
        answer = await answerRecall(project, query);
      } catch (error) {
        if (error instanceof RecallInputError) throw new CliError(error.message);
        throw error;
      }
      if (args.values.json) {
        io.out(`${JSON.stringify({ project: project.root, ...payload(answer, explain) })}\n`);
        return 0;
      }
      if (answer.context) {
        io.out(answer.context.text ? `${answer.context.text}\n` : 'No memories match.\n');
        io.err(`engram: ${answer.context.tokens} tokens (estimated), ${answer.context.items.length} memories, ${answer.context.leftOut} left out by the budget\n`);
        return 0;
      }
      if (answer.results.length === 0) io.out('No memories match.\n');
      for (const r of answer.results) {
        io.out(`${r.score.toFixed(2)}  ${r.memory.id}  [${r.memory.kind}${r.memory.pin === 'none' ? '' : `, ${r.memory.pin} pin`}] ${r.memory.title}\n`);
        if (explain) io.out(`      ${r.explanation.map((p) => `${p.reason} ${p.points >= 0 ? '+' : ''}${p.points}`).join(', ')}\n`);
      }
      return 0;
    });
  },
};
