import { pinMemory } from '../../actions/pin';
import type { PinLevel } from '../../memory/types';
import { CliError, type Command } from '../command';
import { projectOptionSpec, withProject } from '../projectOption';
import { lifecycleStep } from './lifecycleOutput';

function pinCommand(name: 'pin' | 'unpin', summary: string, level: (args: Parameters<Command['run']>[0]) => PinLevel): Command {
  return {
    name,
    summary,
    usage: name === 'pin' ? '[--soft] ID' : 'ID',
    options: { ...projectOptionSpec, ...(name === 'pin' ? { soft: { type: 'boolean' } } : {}) },
    positionals: { min: 1, max: 1 },
    run(args, io) {
      return withProject(args, io, async (project) => {
        const { memory, team } = lifecycleStep(project, () => pinMemory(project, args.positionals[0]!, level(args), 'person'));
        if (team.kind === 'refused') throw new CliError(`${memory.id} changed for you, not in the team file: ${team.problem}`);
        if (team.kind === 'written') io.err(`engram: ${team.file} changed: commit it to share the change\n`);
        io.out(`${memory.id} ${memory.pin === 'none' ? 'unpinned' : `${memory.pin}-pinned`}\n`);
        return 0;
      });
    },
  };
}

export const pinCommandSpec = pinCommand('pin', 'pin a memory (hard unless --soft): never evicted, shown first', (args) => (args.values.soft ? 'soft' : 'hard'));
export const unpinCommandSpec = pinCommand('unpin', 'remove a memory\'s pin', () => 'none');
