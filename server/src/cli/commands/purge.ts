import { purge } from '../../actions/status';
import { UsageError, type Command } from '../command';
import { projectOptionSpec, withProject } from '../projectOption';
import { lifecycleStep, memoryLine } from './lifecycleOutput';

export const purgeCommand: Command = {
  name: 'purge',
  summary: 'delete forgotten or archived memories for good (--forgotten: all forgotten; --force: active ones too)',
  usage: '[--forgotten] [--force] [--json] [ID…]',
  options: { ...projectOptionSpec, forgotten: { type: 'boolean' }, force: { type: 'boolean' }, json: { type: 'boolean' } },
  positionals: { min: 0, max: Infinity },
  run(args, io) {
    if (args.positionals.length === 0 && !args.values.forgotten) throw new UsageError('name the memories to purge, or pass --forgotten to purge every forgotten one');
    return withProject(args, io, async (project) => {
      const { purged } = lifecycleStep(project, () => purge(project, { ids: args.positionals, forgotten: args.values.forgotten === true, force: args.values.force === true }));
      if (args.values.json) {
        io.out(`${JSON.stringify({ purged: purged.map((m) => ({ id: m.id, kind: m.kind, title: m.title, status: m.status })) })}\n`);
        return 0;
      }
      if (purged.length === 0) {
        io.out('No forgotten memories to purge.\n');
        return 0;
      }
      for (const memory of purged) io.out(`Purged ${memoryLine(memory)}\n`);
      io.out(`${purged.length} ${purged.length === 1 ? 'memory' : 'memories'} deleted for good.\n`);
      return 0;
    });
  },
};
