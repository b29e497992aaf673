import type { TimelineFilter, TimelineSearchScope } from '../../../contracts/viewProtocol';
import type { CardUiState } from '../shared/memoryCard';
import type { TimelineTab } from '../../../contracts/webviewMessages';

/** What the timeline keeps while it is hidden or the window reloads (VS Code's webview state). */
export interface TimelineState {
  tab: TimelineTab;
  query: string;
  /** Where the search box looks: this clone, or the team hub (docs/team.md). */
  scope: TimelineSearchScope;
  filter: TimelineFilter;
  filtersOpen: boolean;
  projectRoot: string | null;
  selectedKey: string | null;
  scrollTop: number;
  /** Entries loaded when the state was saved: restoring fetches as many pages again, then scrolls. */
  loaded: number;
  injectionSession: string | null;
  ui: CardUiState;
}

/** The saved state, each field defaulted (a state saved by an older version lacks the newer ones). */
export function restoredState(saved: Partial<TimelineState>): TimelineState {
  return {
    tab: saved.tab ?? 'timeline',
    query: saved.query ?? '',
    scope: saved.scope ?? 'local',
    filter: saved.filter ?? {},
    filtersOpen: saved.filtersOpen ?? false,
    projectRoot: saved.projectRoot ?? null,
    selectedKey: saved.selectedKey ?? null,
    scrollTop: saved.scrollTop ?? 0,
    loaded: saved.loaded ?? 0,
    injectionSession: saved.injectionSession ?? null,
    ui: { openScores: saved.ui?.openScores ?? [], editing: saved.ui?.editing ?? null },
  };
}
