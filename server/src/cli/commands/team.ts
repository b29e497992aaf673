import type { Project } from '../../project';
import { applyTeamFile } from '../../team/applyTeamFile';
import { shareMemory, TeamFileError, unshareMemory } from '../../team/shareMemory';
import { TEAM_FILE, teamFilePath } from '../../team/teamFile';
import { CliError, UsageError, type CliIO, type Command } from '../command';
import { projectOptionSpec, withProject } from '../projectOption';

/** One line per problem of the team file, as `engram team status` and `engram doctor` print them. */
export function teamFileReport(project: Project): { readonly summary: string; readonly problems: readonly string[] } {
  // Applied first: the counts are those of the file as it is now (a pull since the memory server last looked).
  const report = applyTeamFile(project);
  const shared = project.team.sharedCount();
  const file = report.file === 'absent' ? `no ${TEAM_FILE} yet (\`engram share ID\` starts one)` : teamFilePath(project.root);
  return {
    summary: `${shared} shared ${shared === 1 ? 'memory' : 'memories'}; ${file}`,
    problems: report.problems.map((p) => `${TEAM_FILE}:${p.lineNumber}: ${p.message}`),
  };
}

function shareOrUnshare(name: 'share' | 'unshare', summary: string): Command {
  return {
    name,
    summary,
    usage: 'ID',
    options: { ...projectOptionSpec },
    positionals: { min: 1, max: 1 },
    run(args, io) {
      return withProject(args, io, async (project) => {
        const id = args.positionals[0]!;
        try {
          // The file as it is now first, so a teammate's change pulled meanwhile is not written over.
          applyTeamFile(project);
          if (name === 'share') {
            const shared = shareMemory(project, id);
            io.out(`${shared.memory.id} shared as ${shared.teamId} in ${shared.file}: commit it to share it\n`);
          } else {
            const unshared = unshareMemory(project, id);
            io.out(unshared ? `${id} unshared: removed ${unshared.teamId} from ${unshared.file} (it stays your own memory)\n` : `${id} was not shared\n`);
          }
        } catch (error) {
          if (error instanceof TeamFileError) throw new CliError(error.message);
          throw error;
        }
        return 0;
      });
    },
  };
}

export const shareCommand = shareOrUnshare('share', `share a memory with the team: written to ${TEAM_FILE}, committed with the code`);
export const unshareCommand = shareOrUnshare('unshare', `take a memory out of ${TEAM_FILE} (it stays your own)`);

function status(project: Project, io: CliIO): number {
  const { summary, problems } = teamFileReport(project);
  io.out(`${summary}\n`);
  for (const problem of problems) io.out(`${problem}\n`);
  if (problems.length) io.out('Every good line applies; fix these lines (keep one side of a conflict) and commit.\n');
  return problems.length ? 1 : 0;
}

export const teamCommand: Command = {
  name: 'team',
  summary: `team memory: \`engram team status\` (shared count, ${TEAM_FILE}, its problems by line; exit 1 with problems)`,
  usage: 'status',
  options: { ...projectOptionSpec },
  positionals: { min: 1, max: 1 },
  run(args, io) {
    if (args.positionals[0] !== 'status') throw new UsageError(`unknown team command "${args.positionals[0]}"; try \`engram team status\``);
    return withProject(args, io, (project) => status(project, io));
  },
};
