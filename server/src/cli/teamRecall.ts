import { hubError } from '../hub/hubConnection';
import { ProjectIdentityError } from '../hub/projectIdentity';
import { recallTeam } from '../hub/teamRecall';
import type { Project } from '../project';
import { CliError, UsageError, type CliIO } from './command';
import { requireHub } from './teamHubCommands';

/** `engram recall --team --query Q [--all-projects]`: the hub's memories, ranked, with why. */
export async function runTeamRecall(project: Project, io: CliIO, options: { readonly query: string | undefined; readonly limit: number; readonly allProjects: boolean; readonly explain: boolean; readonly json: boolean }): Promise<number> {
  if (!options.query?.trim()) throw new UsageError('--team searches the team hub for words: give --query');
  const settings = requireHub(io);
  let results;
  try {
    results = await recallTeam(settings, project.root, options.query, { allProjects: options.allProjects, limit: options.limit, env: io.env });
  } catch (error) {
    if (error instanceof ProjectIdentityError) throw new CliError(error.message);
    throw new CliError(hubError(settings.url, error).message);
  }
  if (options.json) {
    io.out(`${JSON.stringify({ project: project.root, team: true, results: results.map(({ hit }) => ({ key: hit.key, project: hit.project, author: hit.author, score: hit.score, ...hit.record, ...(options.explain ? { explanation: hit.explanation } : {}) })) })}\n`);
    return 0;
  }
  if (!results.length) io.out('No team memories match.\n');
  for (const { hit } of results) {
    const { record } = hit;
    io.out(`${hit.score.toFixed(2)}  ${hit.key}  [${record.kind}${record.pin === 'none' ? '' : `, ${record.pin} pin`}] ${record.title}  · ${hit.project} · by ${hit.author}\n`);
    if (options.explain) io.out(`      text ${hit.explanation.text.toFixed(3)}, names ${hit.explanation.names.toFixed(3)}\n`);
  }
  return 0;
}
