import type { Project } from '../../project';
import { applyTeamFile } from '../../team/applyTeamFile';
import { shareMemoryWithTeam, unshareMemoryFromTeam } from '../../actions/share';
import { TEAM_FILE, teamFilePath } from '../../team/teamFile';
import { UsageError, type CliIO, type Command } from '../command';
import { grantCommand, hubStatusLines, initCommand, syncCommand } from '../teamHubCommands';
import { projectOptionSpec, withProject } from '../projectOption';
import { lifecycleStep } from './lifecycleOutput';

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
        if (name === 'share') {
          const shared = lifecycleStep(project, () => shareMemoryWithTeam(project, id));
          io.out(shared.teamId ? `${shared.memory.id} shared as ${shared.teamId} in ${shared.file}: commit it to share it\n` : `${id} is the team's already (from the team hub)\n`);
        } else {
          const unshared = lifecycleStep(project, () => unshareMemoryFromTeam(project, id));
          io.out(unshared.changed ? `${id} unshared: removed ${unshared.teamId} from ${unshared.file} (it stays your own memory)\n` : `${id} was not shared\n`);
        }
        return 0;
      });
    },
  };
}

export const shareCommand = shareOrUnshare('share', `share a memory with the team: written to ${TEAM_FILE}, committed with the code`);
export const unshareCommand = shareOrUnshare('unshare', `take a memory out of ${TEAM_FILE} (it stays your own)`);

async function status(project: Project, io: CliIO): Promise<number> {
  const { summary, problems } = teamFileReport(project);
  io.out(`${summary}\n`);
  for (const problem of problems) io.out(`${problem}\n`);
  if (problems.length) io.out('Every good line applies; fix these lines (keep one side of a conflict) and commit.\n');
  const hub = await hubStatusLines(project, io);
  for (const line of hub.lines) io.out(`${line}\n`);
  return problems.length || hub.problem ? 1 : 0;
}

const SUBCOMMANDS = ['status', 'init', 'sync', 'grant', 'revoke'] as const;

export const teamCommand: Command = {
  name: 'team',
  summary: `team memory: \`status\` (${TEAM_FILE} and the hub: exit 1 with problems), and for the PostgreSQL hub \`init\`, \`sync\`, \`grant ROLE\`, \`revoke ROLE\` (docs/team.md)`,
  usage: 'status | init | sync | grant ROLE [--sql] | revoke ROLE [--sql]',
  options: { ...projectOptionSpec, sql: { type: 'boolean' } },
  positionals: { min: 1, max: 2 },
  run(args, io) {
    const [sub, role] = args.positionals as [string, string | undefined];
    if (!(SUBCOMMANDS as readonly string[]).includes(sub)) throw new UsageError(`unknown team command "${sub}"; try \`engram team status\``);
    if ((sub === 'grant' || sub === 'revoke') !== (role !== undefined)) throw new UsageError(sub === 'grant' || sub === 'revoke' ? `engram team ${sub} needs the role: engram team ${sub} ROLE` : `engram team ${sub} takes no argument`);
    if (sub === 'init') return initCommand(io);
    return withProject(args, io, (project) => {
      if (sub === 'sync') return syncCommand(project, io);
      if (sub === 'grant' || sub === 'revoke') return grantCommand(project, io, role!, sub === 'revoke', args.values.sql === true);
      return status(project, io);
    });
  },
};
