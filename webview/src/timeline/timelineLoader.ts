import type { SessionInfo, TimelineCursor } from '../../../contracts/viewProtocol';
import type { ViewChannel } from '../shared/channel';
import { h } from '../shared/dom';
import { plural } from '../shared/format';
import { activeFilterCount } from './filters';
import { groupRows, type GroupCursor, type Row } from './rows';
import { noMatchText, resultsHeading } from './searchScope';
import type { TimelineState } from './timelineState';
import type { TimelineToolbar } from './toolbar';
import type { VirtualList } from './virtualList';

const PAGE_SIZE = 200;
const SEARCH_LIMIT = 100;
const RESTORE_MAX = 5000;

export interface LoaderDeps {
  readonly channel: ViewChannel<unknown>;
  /** Read for the query, scope, filter and project; the project is updated from each answer. */
  readonly state: TimelineState;
  readonly list: VirtualList<Row>;
  readonly toolbar: TimelineToolbar;
  /** A load failed: one line for the user (with Try Again). */
  readonly failed: (message: string) => void;
  /** A load succeeded: an earlier failure's notice goes. */
  readonly succeeded: () => void;
}

/**
 * Fills the timeline list: keyset pages of the timeline (the first again after any change, more
 * as the user nears the end) or the search box's results, from this clone or the team hub.
 * Each load takes a generation; an answer to a superseded one is dropped.
 */
export class TimelineLoader {
  /** Every agent session an answer named, for the rows' headings and the detail pane. */
  readonly sessions = new Map<string, SessionInfo>();
  private generation = 0;
  private entries = 0;
  private memories = 0;
  private firstRows = 0;
  private nextCursor: TimelineCursor | null = null;
  private loadingMore = false;
  private group: GroupCursor = { day: null, session: undefined };

  constructor(private readonly deps: LoaderDeps) {}

  /** Entries in the list now (what a restore fetches again). */
  get loaded(): number {
    return this.entries;
  }

  /** Rows of the first page: scrolled past them, a change offers "Show latest" instead of reloading. */
  get firstPageRows(): number {
    return this.firstRows;
  }

  /** The first page again (filters changed, memories changed, a restart): keeps the selection and, if possible, the scroll. */
  async firstPage(restore = 0): Promise<void> {
    const { channel, state, list } = this.deps;
    const generation = ++this.generation;
    this.loadingMore = true;
    try {
      let page = await channel.call('page', { projectRoot: state.projectRoot ?? undefined, filter: state.filter, cursor: null, limit: PAGE_SIZE });
      if (generation !== this.generation) return;
      this.group = { day: null, session: undefined };
      this.remember(page.sessions, page.projectRoot, page.teamHub, page.projects);
      let rows = groupRows(page.entries, this.sessions, this.group);
      this.firstRows = rows.length;
      let entries = page.entries.length;
      // Restoring after the view was hidden: as many pages as were loaded, so the scroll position exists again.
      while (page.nextCursor && entries < Math.min(restore, RESTORE_MAX)) {
        page = await channel.call('page', { projectRoot: state.projectRoot ?? undefined, filter: state.filter, cursor: page.nextCursor, limit: PAGE_SIZE });
        if (generation !== this.generation) return;
        this.remember(page.sessions, page.projectRoot, page.teamHub);
        rows = rows.concat(groupRows(page.entries, this.sessions, this.group));
        entries += page.entries.length;
      }
      this.entries = entries;
      this.memories = rows.filter((r) => r.kind === 'memory').length;
      this.nextCursor = page.nextCursor;
      this.deps.succeeded();
      list.setRows(rows, !page.nextCursor);
      this.footer(!page.nextCursor);
    } catch (error) {
      if (generation === this.generation) this.failed(error as Error, 'the timeline');
    } finally {
      if (generation === this.generation) this.loadingMore = false;
    }
  }

  /** The next page, appended (the list neared its end); not while searching or already loading. */
  async more(): Promise<void> {
    const { channel, state, list } = this.deps;
    if (state.query || this.loadingMore || !this.nextCursor || state.tab !== 'timeline') return;
    const generation = this.generation;
    this.loadingMore = true;
    try {
      const page = await channel.call('page', { projectRoot: state.projectRoot ?? undefined, filter: state.filter, cursor: this.nextCursor, limit: PAGE_SIZE });
      if (generation !== this.generation) return;
      this.remember(page.sessions, page.projectRoot, page.teamHub);
      const rows = groupRows(page.entries, this.sessions, this.group);
      this.entries += page.entries.length;
      this.memories += rows.filter((r) => r.kind === 'memory').length;
      this.nextCursor = page.nextCursor;
      list.append(rows, !page.nextCursor);
      this.footer(!page.nextCursor);
    } catch (error) {
      if (generation === this.generation) this.failed(error as Error, 'more of the timeline');
    } finally {
      if (generation === this.generation) this.loadingMore = false;
    }
  }

  /** The search box's results, best first, in the chosen scope. */
  async search(): Promise<void> {
    const { channel, state, list } = this.deps;
    const generation = ++this.generation;
    const { query, scope } = state;
    try {
      const found = await channel.call('search', { projectRoot: state.projectRoot ?? undefined, query, filter: state.filter, limit: SEARCH_LIMIT, scope });
      if (generation !== this.generation) return;
      this.remember(found.sessions, found.projectRoot, found.teamHub);
      // A memory only on the hub is keyed by project too: two projects may hold one team-file id.
      const rows: Row[] = found.results.map((r) => ({ kind: 'memory', key: r.memory.hub ? `hub:${r.memory.hub.project}:${r.memory.id}` : r.memory.id, memory: r.memory, score: r }));
      this.entries = rows.length;
      this.memories = rows.length;
      this.nextCursor = null;
      this.deps.succeeded();
      list.setRows(rows.length ? [{ kind: 'heading', key: 'heading', label: resultsHeading(scope, query) }, ...rows] : [], true);
      this.footer(true);
    } catch (error) {
      if (generation === this.generation) this.failed(error as Error, 'search results');
    }
  }

  private remember(sessions: readonly SessionInfo[], projectRoot: string, teamHub: boolean, projects?: readonly string[]): void {
    for (const session of sessions) this.sessions.set(session.id, session);
    this.deps.state.projectRoot = projectRoot;
    this.deps.toolbar.showTeamHub(teamHub, this.deps.state.scope);
    if (projects) this.deps.toolbar.showProjects(projects, projectRoot);
  }

  private failed(error: Error, what: string): void {
    this.deps.failed(`Could not load ${what}: ${error.message}`);
    this.deps.list.setFooter(null);
  }

  private footer(complete: boolean): void {
    const { state, list, toolbar } = this.deps;
    if (!complete) list.setFooter(h('span', { class: 'muted' }, 'Loading more…'));
    else if (!this.entries) list.setFooter(h('p', { class: 'empty muted' }, this.emptyText()), 80);
    else list.setFooter(h('span', { class: 'muted' }, state.query ? `${plural(this.memories, 'result')}, best first.` : `End of the timeline: ${plural(this.memories, 'memory', 'memories')}.`));
    toolbar.setSummary(state.query ? `${plural(this.memories, 'result')}` : complete ? plural(this.memories, 'memory', 'memories') : `${this.memories.toLocaleString()}+ memories`);
  }

  private emptyText(): string {
    const { query, scope, filter } = this.deps.state;
    if (query) return noMatchText(scope, query, activeFilterCount(filter) > 0);
    if (activeFilterCount(filter)) return 'No memories match these filters. Loosen them (Filters) to see more.';
    return 'No memories yet. Engram records every save and every agent edit in this project, and what agents decide and learn; pinned constraints appear here too.';
  }
}
