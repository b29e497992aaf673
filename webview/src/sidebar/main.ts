import type { MemoryPanel, ViewMemory } from '../../../contracts/viewProtocol';
import { connectView } from '../shared/channel';
import { h, keepingFocus } from '../shared/dom';
import { age, plural, sessionLabel } from '../shared/format';
import { icon } from '../shared/icons';
import { memoryCard, type CardHost, type CardUiState } from '../shared/memoryCard';
import type { PanelState } from '../../../contracts/webviewMessages';
import { Tags } from '../shared/toolkit';
import '../shared/memoryViews.css';
import './sidebar.css';

interface SidebarState {
  panel: PanelState | null;
  ui: CardUiState;
  /** Memories forgotten from here, with Undo, newest first. */
  undo: { projectRoot: string; id: string; title: string }[];
  notice: { text: string; kind: 'info' | 'error' } | null;
  /** The last `engram.showMemories` request whose banner got focus (once per request, not on every refetch). */
  focusedRequest: number | null;
}

type SelectionState = Extract<PanelState, { kind: 'selection' }>;

const UNDO_KEPT = 3;
const NOTICE_MS = 8000;

const channel = connectView<SidebarState>();
const root = document.getElementById('engram-sidebar')!;
const saved = channel.loadState();
const state: SidebarState = {
  panel: saved.panel ?? null,
  ui: { openScores: saved.ui?.openScores ?? [], editing: saved.ui?.editing ?? null },
  undo: saved.undo ?? [],
  notice: null,
  focusedRequest: saved.focusedRequest ?? null,
};

const host: CardHost = {
  channel,
  ui: state.ui,
  rerender: () => render(),
  updated: (memory) => {
    replaceMemory(memory);
    render();
  },
  forgotten: (memory, projectRoot) => {
    state.undo = [{ projectRoot, id: memory.id, title: memory.title }, ...state.undo.filter((u) => u.id !== memory.id)].slice(0, UNDO_KEPT);
    render();
    document.querySelector<HTMLElement>(`[data-focus="undo:${CSS.escape(memory.id)}"]`)?.focus();
  },
  report: (text, kind) => {
    const notice = { text, kind };
    state.notice = notice;
    render();
    // What went well fades; what went wrong stays until the next action.
    if (kind === 'info') {
      setTimeout(() => {
        if (state.notice !== notice) return;
        state.notice = null;
        render();
      }, NOTICE_MS);
    }
  },
};

/** Shows an action's result at once; the refetch the server's change notification causes confirms it. */
function replaceMemory(memory: ViewMemory): void {
  if (state.panel?.kind === 'selection') {
    const { selection } = state.panel;
    state.panel = {
      ...state.panel,
      selection: {
        ...selection,
        constraints: selection.constraints.map((c) => (c.memory.id === memory.id ? { ...c, memory } : c)),
        memories: selection.memories.map((m) => (m.id === memory.id ? memory : m)),
      },
    };
    return;
  }
  if (state.panel?.kind !== 'ready') return;
  const panel = state.panel.panel;
  state.panel = {
    kind: 'ready',
    panel: {
      ...panel,
      constraints: panel.constraints.map((c) => (c.memory.id === memory.id ? { ...c, memory } : c)),
      memories: panel.memories.map((m) => (m.memory.id === memory.id ? { ...m, memory } : m)),
    },
  };
}

function commandButton(label: string, command: 'showLog' | 'restartServer' | 'pinSelection', appearance: 'primary' | 'secondary' = 'secondary'): HTMLElement {
  const node = h(Tags.button, { appearance, 'data-focus': `command:${command}` }, label);
  node.addEventListener('click', () => channel.call('command', { command }).catch((error: Error) => host.report(error.message, 'error')));
  return node;
}

function timelineButton(label = 'Open Memory Timeline'): HTMLElement {
  const node = h(Tags.button, { appearance: 'secondary', 'data-focus': 'open-timeline' }, label);
  node.addEventListener('click', () => void channel.call('openTimeline', {}));
  return node;
}

function emptyState(title: string, text: string, ...actions: HTMLElement[]): HTMLElement {
  return h('section', { class: 'empty-state' }, h('h2', {}, title), h('p', {}, text), actions.length ? h('div', { class: 'actions' }, ...actions) : null);
}

function section(id: string, title: string, count: number, ...content: (HTMLElement | null)[]): HTMLElement {
  return h('section', { class: 'panel-section', 'aria-labelledby': `${id}-heading` }, h('h2', { id: `${id}-heading` }, title, count ? h('span', { class: 'count' }, ` ${count}`) : null), ...content);
}

function sessionsSection(panel: MemoryPanel): HTMLElement {
  if (!panel.sessions.length) return section('sessions', 'Agent sessions here', 0, h('p', { class: 'muted' }, 'No agent session has made memories about this file yet.'));
  const items = panel.sessions.map((s) => {
    const timeline = h('button', { type: 'button', class: 'link', 'data-focus': `session:${s.id}` }, sessionLabel(s));
    timeline.addEventListener('click', () => void channel.call('openTimeline', { sessionId: s.id, tab: 'timeline' }));
    const given = h('button', { type: 'button', class: 'link', 'data-focus': `given:${s.id}` }, 'what it was given');
    given.addEventListener('click', () => void channel.call('openTimeline', { sessionId: s.id, tab: 'injections' }));
    return h('li', { class: 'session' }, icon('session'), h('div', {}, timeline, h('div', { class: 'meta' }, h('span', {}, plural(s.memories, 'memory', 'memories')), h('span', {}, age(s.lastAt)), given)));
  });
  return section('sessions', 'Agent sessions here', panel.sessions.length, h('ul', { class: 'sessions' }, ...items));
}

/** The file (and symbol) shown; a focus target for keyboard users going between a selection and all memories. */
function placeHeader(projectRoot: string, path: string, symbol: string | null): HTMLElement {
  return h('header', { class: 'place', tabindex: -1, 'data-focus': 'place' }, h('div', { class: 'path', title: `${projectRoot}/${path}` }, path), symbol ? h('div', { class: 'symbol' }, symbol) : null);
}

/** The constraints the panel does not list, and the way to see them all (as the file's top CodeLens shows them). */
function moreConstraints(count: number): HTMLElement {
  const all = h(Tags.button, { appearance: 'secondary', 'data-focus': 'all-constraints' }, 'Show all');
  all.addEventListener('click', () => channel.call('showFileMemories', {}).catch((error: Error) => host.report(error.message, 'error')));
  return h('div', { class: 'more' }, h('p', { class: 'muted' }, `${plural(count, 'more constraint', 'more constraints')} ${count === 1 ? 'applies' : 'apply'} to this file.`), h('div', { class: 'actions' }, all));
}

function readyPanel(panel: MemoryPanel): HTMLElement[] {
  const where = placeHeader(panel.projectRoot, panel.path, panel.symbol);
  const constraints = panel.constraints.length
    ? h('div', { class: 'cards' }, ...panel.constraints.map((c) => memoryCard(c.memory, { projectRoot: panel.projectRoot, constraint: c }, host)))
    : h('div', { class: 'muted' }, h('p', {}, 'No constraint applies to this file. Select code and pin the rule it must follow.'), h('div', { class: 'actions' }, commandButton('Pin Selection as Constraint', 'pinSelection')));
  const memories = panel.memories.length
    ? h('div', { class: 'cards' }, ...panel.memories.map((m) => memoryCard(m.memory, { projectRoot: panel.projectRoot, score: m }, host)))
    : h('p', { class: 'muted' }, 'Nothing else is remembered about this file yet. Engram records every save and every agent edit here, and what agents decide about it.');
  const more = panel.moreConstraints ? moreConstraints(panel.moreConstraints) : null;
  return [
    where,
    section('constraints', 'Constraints that apply here', panel.constraints.length + panel.moreConstraints, constraints, more),
    section('memories', 'Relevant memories', panel.memories.length, memories),
    sessionsSection(panel),
  ];
}

/** Only the memories a CodeLens or hover link named, under a banner saying so, with the way back to all of them. */
function selectionPanel({ selection, from }: SelectionState): HTMLElement[] {
  const shown = selection.constraints.length + selection.memories.length;
  const showAll = h('button', { type: 'button', class: 'link', 'data-focus': 'show-all' }, 'Show all for this file');
  showAll.addEventListener('click', () => {
    // The banner goes away: keep the keyboard at the top of the panel, on the file's name.
    document.querySelector<HTMLElement>('[data-focus="place"]')?.focus();
    channel.call('follow', {}).catch((error: Error) => host.report(error.message, 'error'));
  });
  const missing = selection.missing
    ? h('p', { class: 'muted' }, `${plural(selection.missing, 'other')} ${selection.missing === 1 ? 'is' : 'are'} no longer active (forgotten or archived since).`)
    : null;
  const banner = h(
    'section',
    { class: 'selection-banner', 'aria-labelledby': 'selection-heading' },
    h('p', {}, h('strong', { id: 'selection-heading', tabindex: -1, 'data-focus': 'selection-heading' }, `Showing ${plural(shown, 'memory', 'memories')} from ${from ?? 'a CodeLens or hover'}`), ' · ', showAll),
    missing,
  );
  const cards = (items: HTMLElement[]) => h('div', { class: 'cards' }, ...items);
  return [
    placeHeader(selection.projectRoot, selection.path, null),
    banner,
    selection.constraints.length
      ? section('selected-constraints', 'Constraints', selection.constraints.length, cards(selection.constraints.map((c) => memoryCard(c.memory, { projectRoot: selection.projectRoot, constraint: c }, host))))
      : null,
    selection.memories.length
      ? section('selected-memories', 'Memories', selection.memories.length, cards(selection.memories.map((m) => memoryCard(m, { projectRoot: selection.projectRoot }, host))))
      : null,
    shown ? null : h('p', { class: 'muted' }, 'None of them is active any more. Show all for this file to see what applies now.'),
  ].filter((node): node is HTMLElement => node !== null);
}

/** The file a state is about, to tell a move to another file from a refetch. */
function pathOf(panel: PanelState | null): string | null {
  if (panel?.kind === 'ready') return panel.panel.path;
  if (panel?.kind === 'selection') return panel.selection.path;
  return null;
}

function body(panel: PanelState | null): HTMLElement[] {
  if (!panel || panel.kind === 'loading') {
    return [h('div', { class: 'loading', role: 'status' }, h(Tags.progressRing, { 'aria-hidden': 'true' }), h('span', {}, panel?.kind === 'loading' && panel.path ? `Loading what Engram remembers about ${panel.path}…` : 'Loading…'))];
  }
  switch (panel.kind) {
    case 'noEditor':
      return [emptyState('No file open', 'Open a file to see what Engram remembers about it: the constraints that apply, the most relevant memories for the code at the cursor, and the agent sessions that touched it.', timelineButton())];
    case 'outside':
      return [emptyState('Not in an Engram project', `${panel.path} is outside the folders open in this window. Engram keeps memory per workspace folder: open the folder that contains it (File › Open Folder).`, timelineButton())];
    case 'unavailable':
      return [emptyState('The memory server is not running', `${panel.message}. The Engram output says why; after fixing it, restart the server.`, commandButton('Restart Memory Server', 'restartServer', 'primary'), commandButton('Show Log', 'showLog'))];
    case 'error':
      return [emptyState('Could not load memories', `${panel.message}. Try again; if it keeps failing, the Engram output has the details.`, refreshButton('Try Again'), commandButton('Show Log', 'showLog'))];
    case 'ready':
      return readyPanel(panel.panel);
    case 'selection':
      return selectionPanel(panel);
  }
}

function refreshButton(label: string): HTMLElement {
  const node = h(Tags.button, { appearance: 'primary', 'data-focus': 'refresh' }, label);
  node.addEventListener('click', () => void channel.call('refresh', {}));
  return node;
}

function undoBar(): HTMLElement | null {
  if (!state.undo.length) return null;
  return h(
    'div',
    { class: 'undo-bar', role: 'region', 'aria-label': 'Forgotten memories' },
    ...state.undo.map((item) => {
      const undo = h(Tags.button, { appearance: 'primary', 'data-focus': `undo:${item.id}` }, 'Undo');
      undo.addEventListener('click', async () => {
        try {
          await channel.call('action', { projectRoot: item.projectRoot, id: item.id, action: { type: 'restore' } });
          state.undo = state.undo.filter((u) => u.id !== item.id);
          host.report(`Restored "${item.title}".`, 'info');
        } catch (error) {
          host.report(`Could not restore "${item.title}": ${(error as Error).message}`, 'error');
        }
      });
      const dismiss = h('button', { type: 'button', class: 'link', 'data-focus': `dismiss:${item.id}`, 'aria-label': `Dismiss: forgot ${item.title}` }, 'Dismiss');
      dismiss.addEventListener('click', () => {
        state.undo = state.undo.filter((u) => u.id !== item.id);
        render();
      });
      return h('div', { class: 'undo' }, h('span', {}, `Forgot "${item.title}".`), undo, dismiss);
    }),
  );
}

function render(): void {
  channel.saveState({ ...state, notice: null });
  keepingFocus(() => {
    const notice = state.notice ? h('p', { class: `notice ${state.notice.kind}`, role: state.notice.kind === 'error' ? 'alert' : 'status' }, state.notice.text) : null;
    root.replaceChildren(h('div', { class: 'status-line', 'aria-live': 'polite' }, notice), undoBar() ?? '', ...body(state.panel));
  });
}

channel.onMessage((message) => {
  if (message.type !== 'panel') return;
  // A different file or project: drop the notice and the edit in progress that belonged to the last one.
  const before = pathOf(state.panel);
  const after = pathOf(message.state);
  const moved = after !== null && after !== before;
  if (moved && before !== null) {
    state.notice = null;
    state.ui.editing = null;
  }
  // A CodeLens or hover just asked for these memories (not a refetch of them): the keyboard goes to the banner.
  const selected = message.state.kind === 'selection' && message.state.request !== state.focusedRequest ? message.state.request : null;
  if (selected !== null) state.focusedRequest = selected;
  state.panel = message.state;
  render();
  // Another file, or memories just asked for: start at the top.
  if (moved || selected !== null) window.scrollTo(0, 0);
  if (selected !== null) document.querySelector<HTMLElement>('[data-focus="selection-heading"]')?.focus();
});

render();
channel.ready();
