import { setPinByPerson } from '../../constraints/acceptRule';
import type { PinLevel } from '../../memory/types';
import { CliError, type Command } from '../command';
import { projectOptionSpec, withProject } from '../projectOption';
import { publishIfShared, TeamFileError } from '../../team/shareMemory';
import { TEAM_FILE } from '../../team/teamFile';

function pinCommand(name: 'pin' | 'unpin', summary: string, level: (args: Parameters<Command['run']>[0]) => PinLevel): Command {
  return {
    name,
    summary,
    usage: name === 'pin' ? '[--soft] ID' : 'ID',
    options: { ...projectOptionSpec, ...(name === 'pin' ? { soft: { type: 'boolean' } } : {}) },
    positionals: { min: 1, max: 1 },
    run(args, io) {
      return withProject(args, io, async (project) => {
        const id = args.positionals[0]!;
        const memory = setPinByPerson(project, id, level(args));
        if (!memory) throw new CliError(`no memory with id ${id} in ${project.root}`);
        try {
          // A shared memory's pin is the team's: the team file gets it.
          if (publishIfShared(project, id)) io.err(`engram: ${TEAM_FILE} changed: commit it to share the change\n`);
        } catch (error) {
          if (error instanceof TeamFileError) throw new CliError(`${memory.id} changed for you, not in the team file: ${error.message}`);
          throw error;
        }
        io.out(`${memory.id} ${memory.pin === 'none' ? 'unpinned' : `${memory.pin}-pinned`}\n`);
        return 0;
      });
    },
  };
}

export const pinCommandSpec = pinCommand('pin', 'pin a memory (hard unless --soft): never evicted, shown first', (args) => (args.values.soft ? 'soft' : 'hard'));
export const unpinCommandSpec = pinCommand('unpin', 'remove a memory\'s pin', () => 'none');
