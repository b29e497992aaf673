import type { TimelineSearchScope } from '../../../contracts/viewProtocol';
import { h } from '../shared/dom';
import type { TimelineTab } from '../../../contracts/webviewMessages';
import { Tags, setValue, valueOf } from '../shared/toolkit';
import { SCOPE_LABELS, searchPlaceholder, showsScopePicker } from './searchScope';

const SEARCH_AFTER_MS = 300;
const TABS: readonly TimelineTab[] = ['timeline', 'injections'];

/** What the toolbar's controls ask of the timeline. */
export interface ToolbarActions {
  readonly selectTab: (tab: TimelineTab) => void;
  /** The search box's text, trimmed: after a pause in typing, on Enter, or '' on Escape. */
  readonly search: (query: string) => void;
  readonly scope: (scope: TimelineSearchScope) => void;
  readonly project: (projectRoot: string) => void;
  readonly toggleFilters: () => void;
  /** ↓ in the search box: on to the list. */
  readonly toList: () => void;
}

/**
 * The timeline's header: the tabs, then the timeline's tools — the search box, the search scope
 * (only with a team hub), the filters toggle, the project picker (only with two projects or more)
 * and the count of what is listed.
 */
export class TimelineToolbar {
  readonly element: HTMLElement;
  /** The filters toggle, for its label and `aria-expanded`. */
  readonly filtersToggle: HTMLElement;
  private readonly tabs: HTMLButtonElement[];
  private readonly tools: HTMLElement;
  private readonly searchBox: HTMLElement;
  private readonly scopePicker: HTMLElement;
  private readonly projectPicker: HTMLElement;
  private readonly summary: HTMLElement;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(initial: { readonly query: string; readonly scope: TimelineSearchScope }, actions: ToolbarActions) {
    this.tabs = TABS.map((tab) => {
      const button = h('button', { type: 'button', role: 'tab', id: `tab-${tab}`, class: 'tab', 'aria-controls': `panel-${tab}`, 'data-focus': `tab:${tab}` }, tab === 'timeline' ? 'Timeline' : 'Injection log');
      button.addEventListener('click', () => actions.selectTab(tab));
      button.addEventListener('keydown', (event) => {
        if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
        event.preventDefault();
        const other = tab === 'timeline' ? 'injections' : 'timeline';
        actions.selectTab(other);
        document.getElementById(`tab-${other}`)?.focus();
      });
      return button;
    });

    this.searchBox = h(Tags.textField, { placeholder: searchPlaceholder(initial.scope), 'aria-label': 'Search memories', 'data-focus': 'search', class: 'search' });
    setValue(this.searchBox, initial.query);
    this.searchBox.addEventListener('input', () => {
      clearTimeout(this.searchTimer);
      this.searchTimer = setTimeout(() => actions.search(valueOf(this.searchBox).trim()), SEARCH_AFTER_MS);
    });
    this.searchBox.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        clearTimeout(this.searchTimer);
        actions.search(valueOf(this.searchBox).trim());
      } else if (event.key === 'Escape') {
        clearTimeout(this.searchTimer);
        setValue(this.searchBox, '');
        actions.search('');
      } else if (event.key === 'ArrowDown') {
        event.preventDefault();
        actions.toList();
      }
    });

    this.scopePicker = h(
      Tags.dropdown,
      { class: 'scope', 'aria-label': 'Search in', 'data-focus': 'scope', title: 'Where the search box looks: this clone’s memory, or the team hub' },
      // Selected by attribute: the dropdown is not in the page yet, and takes its value from its options once it is.
      ...(Object.keys(SCOPE_LABELS) as TimelineSearchScope[]).map((scope) => h(Tags.option, { value: scope, selected: scope === initial.scope }, SCOPE_LABELS[scope])),
    );
    this.scopePicker.hidden = !showsScopePicker(false, initial.scope);
    this.scopePicker.addEventListener('change', () => {
      const scope = valueOf(this.scopePicker) as TimelineSearchScope;
      if (!(scope in SCOPE_LABELS)) return;
      this.searchBox.setAttribute('placeholder', searchPlaceholder(scope));
      actions.scope(scope);
    });

    this.filtersToggle = h(Tags.button, { appearance: 'secondary', 'aria-controls': 'filters', 'data-focus': 'filters-toggle' });
    this.filtersToggle.addEventListener('click', () => actions.toggleFilters());

    this.projectPicker = h(Tags.dropdown, { 'aria-label': 'Project', 'data-focus': 'project', hidden: true });
    this.projectPicker.addEventListener('change', () => {
      const next = valueOf(this.projectPicker);
      if (next) actions.project(next);
    });

    this.summary = h('span', { class: 'summary muted', 'aria-live': 'polite' });
    this.tools = h('div', { class: 'timeline-tools' }, this.searchBox, this.scopePicker, this.filtersToggle, this.projectPicker, this.summary);
    this.element = h('header', { class: 'toolbar' }, h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Engram memory' }, ...this.tabs), this.tools);
  }

  /** Marks the tab selected (one tab stop) and shows the timeline's tools only on the timeline. */
  selectTab(tab: TimelineTab): void {
    for (const button of this.tabs) {
      const selected = button.id === `tab-${tab}`;
      button.setAttribute('aria-selected', String(selected));
      button.tabIndex = selected ? 0 : -1;
    }
    this.tools.toggleAttribute('hidden', tab !== 'timeline');
  }

  setQuery(query: string): void {
    setValue(this.searchBox, query);
  }

  /** Every open project, when there are two or more; `current` selected. */
  showProjects(projects: readonly string[], current: string): void {
    this.projectPicker.hidden = projects.length < 2;
    if (projects.length > 1) {
      this.projectPicker.replaceChildren(...projects.map((p) => h(Tags.option, { value: p }, p)));
      setValue(this.projectPicker, current);
    }
  }

  /** Whether the memory server has a team hub, as its last answer said: the scope picker follows. */
  showTeamHub(teamHub: boolean, scope: TimelineSearchScope): void {
    this.scopePicker.hidden = !showsScopePicker(teamHub, scope);
  }

  setFilters(label: string, open: boolean): void {
    this.filtersToggle.textContent = label;
    this.filtersToggle.setAttribute('aria-expanded', String(open));
  }

  setSummary(text: string): void {
    this.summary.textContent = text;
  }
}
