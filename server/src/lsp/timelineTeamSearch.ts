import { ErrorCodes, LSPErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { hubError } from '../hub/hubConnection';
import type { HubSettings } from '../hub/hubSettings';
import { ProjectIdentityError } from '../hub/projectIdentity';
import { recallTeam, type TeamRecallResult } from '../hub/teamRecall';
import type { TeamSearchHit } from '../hub/teamSearch';
import type { Memory } from '../memory/types';
import type { Project } from '../project';
import { itemText } from '../recall/contextItem';
import type { TimelineSearch } from '../../../contracts/viewProtocol';
import { viewMemory } from './viewMemory';

/** How the memory server reaches the hub for a search: its own settings and environment (hubFollower.ts). */
export interface HubSearchAccess {
  readonly settings: HubSettings;
  readonly env: NodeJS.ProcessEnv;
}

export interface TeamTimelineQuery {
  readonly text: string;
  /** Every project the hub lets this role read, not only this clone's. */
  readonly allProjects: boolean;
  /** How many hits the hub ranks; the filter narrows them, then `limit` are kept. */
  readonly candidates: number;
  readonly limit: number;
}

/** The hub's ranking as the score section shows it: the parts sum to the score (teamSearch.ts). */
function hubExplanation(hit: TeamSearchHit): { reason: string; points: number }[] {
  return [
    { reason: 'team hub: full-text rank of the words (title over why, names, body), ×2', points: 2 * hit.explanation.text },
    { reason: 'team hub: name similarity (titles and symbols, trigram)', points: hit.explanation.names },
  ];
}

/**
 * The timeline's search of the team hub (docs/team.md), through the same team recall as
 * `engram recall --team`. A hit this clone has (the store links its hub key) is shown as the local
 * memory, to act on as usual; any other is the hub's copy, marked `hub`, read-only but for Copy as context. `keep` is
 * the timeline's filter, applied to what is shown. No hub configured, a project without a remote
 * or a hub that cannot answer: a ResponseError of one line.
 */
export async function searchTeamForTimeline(project: Project, access: HubSearchAccess | null, query: TeamTimelineQuery, keep: (memory: Memory) => boolean): Promise<TimelineSearch['results']> {
  if (!access) throw new ResponseError(ErrorCodes.InvalidRequest, 'no team hub is configured: set engram.team.url (or ENGRAM_TEAM_URL) to search the team hub (docs/team.md)');
  let found: TeamRecallResult[];
  try {
    found = await recallTeam(access.settings, project.root, query.text, { allProjects: query.allProjects, limit: query.candidates, env: access.env });
  } catch (error) {
    if (error instanceof ProjectIdentityError) throw new ResponseError(ErrorCodes.InvalidRequest, error.message);
    throw new ResponseError(LSPErrorCodes.RequestFailed, hubError(access.settings.url, error).message);
  }
  // Links are to the hub project this store follows: the same key in another project is another memory.
  const following = project.hub.state().project;
  const results: TimelineSearch['results'][number][] = [];
  for (const { hit, memory: hubCopy } of found) {
    const link = hit.project === following ? project.hub.linkByKey(hit.key) : null;
    const local = link ? project.store.get(link.memoryId) : null;
    if (!keep(local ?? hubCopy)) continue;
    const memory = local ? viewMemory(local) : { ...viewMemory(hubCopy), hub: { project: hit.project, author: hit.author, context: itemText(hubCopy) } };
    results.push({ memory, score: hit.score, explanation: hubExplanation(hit) });
    if (results.length === query.limit) break;
  }
  return results;
}
