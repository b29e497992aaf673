import type { SessionInfo, TimelineCursor, TimelineFilter, ViewMemory } from '../../../server/src/viewProtocol';
import { connectView } from '../shared/channel';
import { h, keepingFocus } from '../shared/dom';
import { plural } from '../shared/format';
import type { CardHost, CardUiState } from '../shared/memoryCard';
import type { TimelineTab } from '../shared/messages';
import { Tags, setValue, valueOf } from '../shared/toolkit';
import { activeFilterCount, filterForm, type FilterForm } from './filters';
import { InjectionLogView } from './injectionLog';
import { renderDetail } from './detailPane';
import { groupRows, isSelectable, renderRow, rowHeight, type GroupCursor, type Row } from './rows';
import { VirtualList } from './virtualList';
import '../shared/memoryViews.css';
import './timeline.css';

interface TimelineState {
  tab: TimelineTab;
  query: string;
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

const PAGE_SIZE = 200;
const SEARCH_LIMIT = 100;
const RESTORE_MAX = 5000;
const REFRESH_AFTER_MS = 400;
const SEARCH_AFTER_MS = 300;

const channel = connectView<TimelineState>();
const saved = channel.loadState();
const state: TimelineState = {
  tab: saved.tab ?? 'timeline',
  query: saved.query ?? '',
  filter: saved.filter ?? {},
  filtersOpen: saved.filtersOpen ?? false,
  projectRoot: saved.projectRoot ?? null,
  selectedKey: saved.selectedKey ?? null,
  scrollTop: saved.scrollTop ?? 0,
  loaded: saved.loaded ?? 0,
  injectionSession: saved.injectionSession ?? null,
  ui: { openScores: saved.ui?.openScores ?? [], editing: saved.ui?.editing ?? null },
};

/** What the list holds now; `generation` discards answers to superseded requests. */
const data = {
  generation: 0,
  entries: 0,
  memories: 0,
  firstPageRows: 0,
  nextCursor: null as TimelineCursor | null,
  loadingMore: false,
  group: { day: null, session: undefined } as GroupCursor,
  sessions: new Map<string, SessionInfo>(),
  projects: [] as string[],
};

const root = document.getElementById('engram-timeline')!;

function persist(): void {
  channel.saveState({ ...state, scrollTop: list.scrollTop, loaded: data.entries });
}

// ——— layout ———

const tabs = (['timeline', 'injections'] as const).map((tab) => {
  const button = h('button', { type: 'button', role: 'tab', id: `tab-${tab}`, class: 'tab', 'aria-controls': `panel-${tab}`, 'data-focus': `tab:${tab}` }, tab === 'timeline' ? 'Timeline' : 'Injection log');
  button.addEventListener('click', () => setTab(tab));
  button.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const other = tab === 'timeline' ? 'injections' : 'timeline';
    setTab(other);
    document.getElementById(`tab-${other}`)?.focus();
  });
  return button;
});
const search = h(Tags.textField, { placeholder: 'Search memories (recall: words, file names, symbols)', 'aria-label': 'Search memories', 'data-focus': 'search', class: 'search' });
setValue(search, state.query);
const filtersToggle = h(Tags.button, { appearance: 'secondary', 'aria-controls': 'filters', 'data-focus': 'filters-toggle' });
const projectPicker = h(Tags.dropdown, { 'aria-label': 'Project', 'data-focus': 'project', hidden: true });
const summary = h('span', { class: 'summary muted', 'aria-live': 'polite' });
const toolbar = h(
  'header',
  { class: 'toolbar' },
  h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Engram memory' }, ...tabs),
  h('div', { class: 'timeline-tools' }, search, filtersToggle, projectPicker, summary),
);
const filtersBox = h('div', { id: 'filters', class: 'filters-box' });
const banner = h('div', { class: 'banner', role: 'status', hidden: true });
const statusLine = h('div', { class: 'status-line', 'aria-live': 'polite' });
const listElement = h('div', { class: 'list', 'aria-label': 'Memories over time, newest first' });
const detail = h('aside', { class: 'detail', 'aria-label': 'Selected memory' });
const timelinePanel = h('section', { id: 'panel-timeline', role: 'tabpanel', 'aria-labelledby': 'tab-timeline', class: 'tab-panel timeline-panel' }, h('div', { class: 'split' }, listElement, detail));
const injectionsPanel = h('section', { id: 'panel-injections', role: 'tabpanel', 'aria-labelledby': 'tab-injections', class: 'tab-panel injections-panel' });
root.replaceChildren(toolbar, filtersBox, banner, statusLine, timelinePanel, injectionsPanel);

const injectionLog = new InjectionLogView(injectionsPanel, {
  channel,
  projectRoot: () => state.projectRoot ?? undefined,
  selected: () => state.injectionSession,
  setSelected: (sessionId) => {
    state.injectionSession = sessionId;
    persist();
  },
  visible: () => state.tab === 'injections',
  loaded: (projectRoot, sessions) => {
    state.projectRoot = projectRoot;
    filters.setSessions(sessions);
  },
  showSession: (sessionId) => showInjections(sessionId),
  showInTimeline: (sessionId) => showSessionInTimeline(sessionId),
});
let filters: FilterForm = buildFilters();

const list = new VirtualList<Row>(listElement, {
  height: rowHeight,
  render: renderRow,
  selectable: isSelectable,
  key: (row) => row.key,
  onSelect: (row) => {
    state.selectedKey = row?.key ?? null;
    persist();
    keepingFocus(() => showDetail(row));
  },
  onActivate: () => detail.querySelector<HTMLElement>(`${Tags.button}, button`)?.focus(),
  onNearEnd: () => void loadMore(),
  onScroll: () => schedulePersist(),
});

let persistTimer: ReturnType<typeof setTimeout> | undefined;
function schedulePersist(): void {
  clearTimeout(persistTimer);
  persistTimer = setTimeout(persist, 200);
}

// ——— status, banner, detail ———

function report(text: string, kind: 'info' | 'error', action?: { label: string; run: () => void }): void {
  const button = action ? h(Tags.button, { appearance: 'primary', 'data-focus': 'status-action' }, action.label) : null;
  button?.addEventListener('click', () => {
    statusLine.replaceChildren();
    action!.run();
  });
  statusLine.replaceChildren(h('p', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text, button ? ' ' : null, button));
}

const cardHost: CardHost = {
  channel,
  ui: state.ui,
  rerender: () => {
    persist();
    keepingFocus(() => showDetail(list.selectedRow));
  },
  updated: (memory) => showUpdated(memory),
  forgotten: (memory, projectRoot) => {
    showUpdated(memory);
    report(`Forgot "${memory.title}".`, 'info', {
      label: 'Undo',
      run: () => {
        channel.call('action', { projectRoot, id: memory.id, action: { type: 'restore' } }).then(
          (result) => result.memory && showUpdated(result.memory),
          (error: Error) => report(`Could not restore "${memory.title}": ${error.message}`, 'error'),
        );
      },
    });
    document.querySelector<HTMLElement>('[data-focus="status-action"]')?.focus();
  },
  report: (text, kind) => report(text, kind),
};

function showUpdated(memory: ViewMemory): void {
  list.update((row) => row.kind === 'memory' && row.memory.id === memory.id, (row) => ({ ...(row as Extract<Row, { kind: 'memory' }>), memory }));
}

function showDetail(row: Row | null): void {
  renderDetail(detail, row, state.projectRoot, {
    channel,
    cardHost,
    sessions: data.sessions,
    isSelected: (candidate) => list.selectedRow?.key === candidate.key,
    showInjections,
    report: (text, kind) => report(text, kind),
  });
}

// ——— loading ———

function emptyText(): string {
  if (state.query) return `Nothing matches “${state.query}”${activeFilterCount(state.filter) ? ' with these filters' : ''}. Try other words, a file name or a symbol.`;
  if (activeFilterCount(state.filter)) return 'No memories match these filters. Loosen them (Filters) to see more.';
  return 'No memories yet. Engram records every save and every agent edit in this project, and what agents decide and learn; pinned constraints appear here too.';
}

function footerFor(complete: boolean): void {
  if (!complete) list.setFooter(h('span', { class: 'muted' }, 'Loading more…'));
  else if (!data.entries) list.setFooter(h('p', { class: 'empty muted' }, emptyText()), 80);
  else list.setFooter(h('span', { class: 'muted' }, state.query ? `${plural(data.memories, 'result')}, best first.` : `End of the timeline: ${plural(data.memories, 'memory', 'memories')}.`));
  summary.textContent = state.query ? `${plural(data.memories, 'result')}` : complete ? plural(data.memories, 'memory', 'memories') : `${data.memories.toLocaleString()}+ memories`;
}

function remember(sessions: readonly SessionInfo[], projectRoot: string, projects?: readonly string[]): void {
  for (const session of sessions) data.sessions.set(session.id, session);
  state.projectRoot = projectRoot;
  if (projects) {
    data.projects = [...projects];
    projectPicker.hidden = projects.length < 2;
    if (projects.length > 1) {
      projectPicker.replaceChildren(...projects.map((p) => h(Tags.option, { value: p }, p)));
      setValue(projectPicker, projectRoot);
    }
  }
}

function failed(error: Error, what: string): void {
  report(`Could not load ${what}: ${error.message}`, 'error', { label: 'Try Again', run: () => void reload() });
  list.setFooter(null);
}

/** The first page again (filters changed, memories changed, a restart): keeps the selection and, if possible, the scroll. */
async function loadFirstPage(restore = 0): Promise<void> {
  const generation = ++data.generation;
  data.loadingMore = true;
  try {
    let page = await channel.call('page', { projectRoot: state.projectRoot ?? undefined, filter: state.filter, cursor: null, limit: PAGE_SIZE });
    if (generation !== data.generation) return;
    data.group = { day: null, session: undefined };
    remember(page.sessions, page.projectRoot, page.projects);
    let rows = groupRows(page.entries, data.sessions, data.group);
    data.firstPageRows = rows.length;
    let entries = page.entries.length;
    // Restoring after the view was hidden: as many pages as were loaded, so the scroll position exists again.
    while (page.nextCursor && entries < Math.min(restore, RESTORE_MAX)) {
      page = await channel.call('page', { projectRoot: state.projectRoot ?? undefined, filter: state.filter, cursor: page.nextCursor, limit: PAGE_SIZE });
      if (generation !== data.generation) return;
      remember(page.sessions, page.projectRoot);
      rows = rows.concat(groupRows(page.entries, data.sessions, data.group));
      entries += page.entries.length;
    }
    data.entries = entries;
    data.memories = rows.filter((r) => r.kind === 'memory').length;
    data.nextCursor = page.nextCursor;
    statusLine.querySelector('.notice.error')?.remove();
    list.setRows(rows, !page.nextCursor);
    footerFor(!page.nextCursor);
  } catch (error) {
    if (generation === data.generation) failed(error as Error, 'the timeline');
  } finally {
    if (generation === data.generation) data.loadingMore = false;
  }
}

async function loadMore(): Promise<void> {
  if (state.query || data.loadingMore || !data.nextCursor || state.tab !== 'timeline') return;
  const generation = data.generation;
  data.loadingMore = true;
  try {
    const page = await channel.call('page', { projectRoot: state.projectRoot ?? undefined, filter: state.filter, cursor: data.nextCursor, limit: PAGE_SIZE });
    if (generation !== data.generation) return;
    remember(page.sessions, page.projectRoot);
    const rows = groupRows(page.entries, data.sessions, data.group);
    data.entries += page.entries.length;
    data.memories += rows.filter((r) => r.kind === 'memory').length;
    data.nextCursor = page.nextCursor;
    list.append(rows, !page.nextCursor);
    footerFor(!page.nextCursor);
  } catch (error) {
    if (generation === data.generation) failed(error as Error, 'more of the timeline');
  } finally {
    if (generation === data.generation) data.loadingMore = false;
  }
}

async function runSearch(): Promise<void> {
  const generation = ++data.generation;
  const query = state.query;
  try {
    const found = await channel.call('search', { projectRoot: state.projectRoot ?? undefined, query, filter: state.filter, limit: SEARCH_LIMIT });
    if (generation !== data.generation) return;
    remember(found.sessions, found.projectRoot);
    const rows: Row[] = found.results.map((r) => ({ kind: 'memory', key: r.memory.id, memory: r.memory, score: r }));
    data.entries = rows.length;
    data.memories = rows.length;
    data.nextCursor = null;
    list.setRows(rows.length ? [{ kind: 'heading', key: 'heading', label: `Results for “${query}”, best first` }, ...rows] : [], true);
    footerFor(true);
  } catch (error) {
    if (generation === data.generation) failed(error as Error, 'search results');
  }
}

/** Everything the current tab shows, fetched again. */
async function reload(): Promise<void> {
  banner.hidden = true;
  if (state.tab === 'injections') return injectionLog.load();
  if (state.query) return runSearch();
  return loadFirstPage();
}

// ——— user actions ———

function setTab(tab: TimelineTab): void {
  state.tab = tab;
  for (const button of tabs) {
    const selected = button.id === `tab-${tab}`;
    button.setAttribute('aria-selected', String(selected));
    button.tabIndex = selected ? 0 : -1;
  }
  timelinePanel.hidden = tab !== 'timeline';
  injectionsPanel.hidden = tab !== 'injections';
  toolbar.querySelector('.timeline-tools')!.toggleAttribute('hidden', tab !== 'timeline');
  filtersBox.hidden = tab !== 'timeline' || !state.filtersOpen;
  persist();
  if (tab === 'injections') {
    injectionLog.clearEntries();
    void injectionLog.load();
  }
}

function showInjections(sessionId: string): void {
  state.injectionSession = sessionId;
  setTab('injections');
}

function showSessionInTimeline(sessionId: string): void {
  state.query = '';
  setValue(search, '');
  setFilter({ ...state.filter, sessionId });
  state.filtersOpen = true;
  filters = buildFilters();
  setTab('timeline');
  list.element.focus();
}

function setFilter(filter: TimelineFilter): void {
  state.filter = filter;
  state.selectedKey = null;
  updateFiltersToggle();
  persist();
  list.scrollTop = 0;
  void reload();
}

function updateFiltersToggle(): void {
  const count = activeFilterCount(state.filter);
  filtersToggle.textContent = count ? `Filters (${count})` : 'Filters';
  filtersToggle.setAttribute('aria-expanded', String(state.filtersOpen));
  filtersBox.hidden = state.tab !== 'timeline' || !state.filtersOpen;
}

function buildFilters(): FilterForm {
  const form = filterForm(state.filter, (filter) => setFilter(filter));
  const clear = h(Tags.button, { appearance: 'secondary', 'data-focus': 'filters-clear' }, 'Clear filters');
  clear.addEventListener('click', () => {
    setFilter({});
    filters = buildFilters();
  });
  filtersBox.replaceChildren(form.element, h('div', { class: 'actions' }, clear));
  if (injectionLog.sessions) form.setSessions(injectionLog.sessions);
  updateFiltersToggle();
  return form;
}

filtersToggle.addEventListener('click', () => {
  state.filtersOpen = !state.filtersOpen;
  updateFiltersToggle();
  persist();
  if (state.filtersOpen && !injectionLog.sessions) void injectionLog.load();
});

projectPicker.addEventListener('change', () => {
  const next = valueOf(projectPicker);
  if (!next || next === state.projectRoot) return;
  state.projectRoot = next;
  injectionLog.sessions = null;
  setFilter({ statuses: state.filter.statuses });
  filters = buildFilters();
});

let searchTimer: ReturnType<typeof setTimeout> | undefined;
function searchFor(query: string): void {
  clearTimeout(searchTimer);
  if (query === state.query) return;
  state.query = query;
  state.selectedKey = null;
  persist();
  list.scrollTop = 0;
  void reload();
}
search.addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => searchFor(valueOf(search).trim()), SEARCH_AFTER_MS);
});
search.addEventListener('keydown', (event) => {
  if (event.key === 'Enter') searchFor(valueOf(search).trim());
  else if (event.key === 'Escape') {
    setValue(search, '');
    searchFor('');
  } else if (event.key === 'ArrowDown') {
    event.preventDefault();
    list.element.focus();
  }
});

// ——— messages from the extension ———

let refreshTimer: ReturnType<typeof setTimeout> | undefined;
channel.onMessage((message) => {
  switch (message.type) {
    case 'changed':
      if (message.projectRoot && state.projectRoot && message.projectRoot !== state.projectRoot) return;
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => {
        if (state.tab === 'timeline' && !state.query && list.scrollTop > data.firstPageRows * 40) {
          // Deep in the list: do not move what the user is reading; offer the latest instead.
          banner.replaceChildren(h('span', {}, 'Memories changed. '), showLatestButton());
          banner.hidden = false;
          return;
        }
        void reload();
        if (state.filtersOpen && state.tab === 'timeline') void injectionLog.load();
      }, REFRESH_AFTER_MS);
      return;
    case 'focus':
      if (message.tab === 'injections') {
        if (message.sessionId) state.injectionSession = message.sessionId;
        setTab('injections');
      } else if (message.sessionId) {
        showSessionInTimeline(message.sessionId);
      } else {
        setTab('timeline');
      }
      return;
    case 'unavailable':
      report(`The memory server is not running: ${message.message}. The timeline comes back when it is (Engram: Restart Memory Server).`, 'error');
      return;
    case 'panel':
      return;
  }
});

function showLatestButton(): HTMLElement {
  const button = h(Tags.button, { appearance: 'primary', 'data-focus': 'show-latest' }, 'Show latest');
  button.addEventListener('click', () => {
    list.scrollTop = 0;
    void reload();
  });
  return button;
}

// ——— start ———

updateFiltersToggle();
setTab(state.tab);
showDetail(null);
if (state.tab === 'timeline') {
  const restoreScroll = state.scrollTop;
  const selected = state.selectedKey;
  const start = state.query ? runSearch() : loadFirstPage(state.loaded);
  void start.then(() => {
    list.scrollTop = restoreScroll;
    if (selected) list.selectKey(selected, false);
  });
}
channel.ready();
