import { recall } from '../../recall/recall';
import { integerOption, stringOption, type Command } from '../command';
import { projectOptionSpec, projectPathOf, withProject } from '../projectOption';

export const recallCommand: Command = {
  name: 'recall',
  summary: 'the memories that matter for a file, line and/or query, best first',
  usage: '[--file F] [--line N] [--query Q] [--limit N] [--explain] [--json]',
  options: {
    ...projectOptionSpec,
    file: { type: 'string' },
    line: { type: 'string' },
    query: { type: 'string' },
    limit: { type: 'string' },
    explain: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  positionals: { min: 0, max: 0 },
  run(args, io) {
    const limit = integerOption(args, 'limit', { min: 1, max: 1000 }) ?? 10;
    const line = integerOption(args, 'line', { min: 1, max: 10_000_000 });
    return withProject(args, io, async (project) => {
      const fileArg = stringOption(args, 'file');
      const file = fileArg === undefined ? undefined : projectPathOf(project, io, fileArg);
      const results = recall(project.store, { query: stringOption(args, 'query'), file, line: line === undefined ? undefined : line - 1, limit });
      if (args.values.json) {
        const explain = args.values.explain === true;
        const payload = results.map((r) => ({ ...r.memory, score: r.score, ...(explain ? { explanation: r.explanation } : {}) }));
        io.out(`${JSON.stringify({ project: project.root, results: payload })}\n`);
        return 0;
      }
      if (results.length === 0) io.out('No memories match.\n');
      for (const r of results) {
        io.out(`${r.score.toFixed(2)}  ${r.memory.id}  [${r.memory.kind}${r.memory.pin === 'none' ? '' : `, ${r.memory.pin} pin`}] ${r.memory.title}\n`);
        if (args.values.explain) io.out(`      ${r.explanation.map((p) => `${p.reason} +${p.points}`).join(', ')}\n`);
      }
      return 0;
    });
  },
};
