import type { TimelineFilter, TimelineSearchScope, ViewMemory } from '../../../contracts/viewProtocol';
import { connectView } from '../shared/channel';
import { h, keepingFocus } from '../shared/dom';
import type { CardHost } from '../shared/memoryCard';
import type { TimelineTab } from '../../../contracts/webviewMessages';
import { Tags } from '../shared/toolkit';
import { renderDetail } from './detailPane';
import { activeFilterCount, filterForm, type FilterForm } from './filters';
import { InjectionLogView } from './injectionLog';
import { isSelectable, renderRow, rowHeight, type Row } from './rows';
import { TimelineLoader } from './timelineLoader';
import { restoredState, type TimelineState } from './timelineState';
import { TimelineToolbar } from './toolbar';
import { VirtualList } from './virtualList';
import '../shared/memoryViews.css';
import './timeline.css';

const REFRESH_AFTER_MS = 400;

const channel = connectView<TimelineState>();
const state = restoredState(channel.loadState());
const root = document.getElementById('engram-timeline')!;

function persist(): void {
  channel.saveState({ ...state, scrollTop: list.scrollTop, loaded: loader.loaded });
}

// ——— layout ———

const toolbar = new TimelineToolbar(state, {
  selectTab: (tab) => setTab(tab),
  search: (query) => searchFor(query),
  scope: (scope) => setScope(scope),
  project: (projectRoot) => setProject(projectRoot),
  toggleFilters: () => {
    state.filtersOpen = !state.filtersOpen;
    updateFiltersToggle();
    persist();
    if (state.filtersOpen && !injectionLog.sessions) void injectionLog.load();
  },
  toList: () => list.element.focus(),
});
const filtersBox = h('div', { id: 'filters', class: 'filters-box' });
const banner = h('div', { class: 'banner', role: 'status', hidden: true });
const statusLine = h('div', { class: 'status-line', 'aria-live': 'polite' });
const listElement = h('div', { class: 'list', 'aria-label': 'Memories over time, newest first' });
const detail = h('aside', { class: 'detail', 'aria-label': 'Selected memory' });
const timelinePanel = h('section', { id: 'panel-timeline', role: 'tabpanel', 'aria-labelledby': 'tab-timeline', class: 'tab-panel timeline-panel' }, h('div', { class: 'split' }, listElement, detail));
const injectionsPanel = h('section', { id: 'panel-injections', role: 'tabpanel', 'aria-labelledby': 'tab-injections', class: 'tab-panel injections-panel' });
root.replaceChildren(toolbar.element, filtersBox, banner, statusLine, timelinePanel, injectionsPanel);

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
  onNearEnd: () => void loader.more(),
  onScroll: () => schedulePersist(),
});

const loader = new TimelineLoader({
  channel,
  state,
  list,
  toolbar,
  failed: (message) => report(message, 'error', { label: 'Try Again', run: () => void reload() }),
  succeeded: () => statusLine.querySelector('.notice.error')?.remove(),
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
    sessions: loader.sessions,
    isSelected: (candidate) => list.selectedRow?.key === candidate.key,
    showInjections,
    report: (text, kind) => report(text, kind),
  });
}

// ——— user actions ———

/** Everything the current tab shows, fetched again. */
async function reload(): Promise<void> {
  banner.hidden = true;
  if (state.tab === 'injections') return injectionLog.load();
  if (state.query) return loader.search();
  return loader.firstPage();
}

function setTab(tab: TimelineTab): void {
  state.tab = tab;
  toolbar.selectTab(tab);
  timelinePanel.hidden = tab !== 'timeline';
  injectionsPanel.hidden = tab !== 'injections';
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
  toolbar.setQuery('');
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
  toolbar.setFilters(count ? `Filters (${count})` : 'Filters', state.filtersOpen);
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

function setProject(projectRoot: string): void {
  if (projectRoot === state.projectRoot) return;
  state.projectRoot = projectRoot;
  injectionLog.sessions = null;
  setFilter({ statuses: state.filter.statuses });
  filters = buildFilters();
}

function searchFor(query: string): void {
  if (query === state.query) return;
  state.query = query;
  state.selectedKey = null;
  persist();
  list.scrollTop = 0;
  void reload();
}

/** This clone or the team hub: searched again at once when there is a query. */
function setScope(scope: TimelineSearchScope): void {
  if (scope === state.scope) return;
  state.scope = scope;
  persist();
  if (!state.query) return;
  state.selectedKey = null;
  list.scrollTop = 0;
  void reload();
}

// ——— messages from the extension ———

let refreshTimer: ReturnType<typeof setTimeout> | undefined;
channel.onMessage((message) => {
  switch (message.type) {
    case 'changed':
      if (message.projectRoot && state.projectRoot && message.projectRoot !== state.projectRoot) return;
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => {
        const deepInList = !state.query && list.scrollTop > loader.firstPageRows * 40;
        // A team search asks the hub again only when the user says so: the hub sync changes local
        // memories every few seconds, and each answer would cost the hub a search.
        const teamSearch = !!state.query && state.scope !== 'local';
        if (state.tab === 'timeline' && (deepInList || teamSearch)) {
          // Do not move what the user is reading; offer the latest instead.
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
  const start = state.query ? loader.search() : loader.firstPage(state.loaded);
  void start.then(() => {
    list.scrollTop = restoreScroll;
    if (selected) list.selectKey(selected, false);
  });
}
channel.ready();
