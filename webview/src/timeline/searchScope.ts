import type { TimelineSearchScope } from '../../../contracts/viewProtocol';

/** The search box's scopes, in the picker's order (docs/team.md). */
export const SCOPE_LABELS: Readonly<Record<TimelineSearchScope, string>> = {
  local: 'This clone',
  team: 'Team hub: this project',
  'team-all': 'Team hub: all projects',
};

export function isTeamScope(scope: TimelineSearchScope): boolean {
  return scope !== 'local';
}

/**
 * The scope picker shows when the memory server has a team hub, and also while a team scope is
 * still chosen without one (the setting was removed): the user must be able to come back.
 */
export function showsScopePicker(teamHub: boolean, scope: TimelineSearchScope): boolean {
  return teamHub || isTeamScope(scope);
}

export function searchPlaceholder(scope: TimelineSearchScope): string {
  return isTeamScope(scope) ? 'Search the team hub (words, names)' : 'Search memories (recall: words, file names, symbols)';
}

export function resultsHeading(scope: TimelineSearchScope, query: string): string {
  if (scope === 'team') return `Team hub results for “${query}” in this project, best first`;
  if (scope === 'team-all') return `Team hub results for “${query}” in all projects, best first`;
  return `Results for “${query}”, best first`;
}

export function noMatchText(scope: TimelineSearchScope, query: string, filtered: boolean): string {
  const narrowed = filtered ? ' with these filters' : '';
  if (isTeamScope(scope)) return `Nothing on the team hub matches “${query}”${narrowed}${scope === 'team' ? ' in this project' : ''}. Try other words or a name.`;
  return `Nothing matches “${query}”${narrowed}. Try other words, a file name or a symbol.`;
}
