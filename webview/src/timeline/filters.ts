import { MEMORY_KINDS, MEMORY_SOURCES, type MemoryStatus } from '../../../server/src/memory/types';
import type { AgentSessionSummary, TimelineFilter } from '../../../contracts/viewProtocol';
import { h } from '../shared/dom';
import { KIND_LABELS, sessionLabel, SOURCE_LABELS } from '../shared/format';
import { Tags, isChecked, setValue, valueOf } from '../shared/toolkit';

const STATUS_LABELS: Readonly<Record<MemoryStatus, string>> = { active: 'Active', archived: 'Archived', forgotten: 'Forgotten' };
export const DEFAULT_STATUSES: readonly MemoryStatus[] = ['active', 'archived'];
const TYPING_PAUSE_MS = 400;

/** How many fields narrow the timeline, for the "Filters (3)" label. */
export function activeFilterCount(filter: TimelineFilter): number {
  const statuses = filter.statuses ?? DEFAULT_STATUSES;
  const defaultStatuses = statuses.length === DEFAULT_STATUSES.length && DEFAULT_STATUSES.every((s) => statuses.includes(s));
  return [filter.kinds?.length, filter.sources?.length, filter.path, filter.symbol, filter.sessionId, filter.pinned, filter.team, !defaultStatuses].filter(Boolean).length;
}

export interface FilterForm {
  readonly element: HTMLElement;
  setSessions(sessions: readonly AgentSessionSummary[]): void;
}

function checkboxGroup<T extends string>(label: string, values: readonly T[], labels: Readonly<Record<T, string>>, checked: readonly T[], onChange: (checked: T[]) => void): HTMLElement {
  const boxes = values.map((value) => {
    const box = h(Tags.checkbox, { 'data-value': value, 'data-focus': `filter:${label}:${value}`, checked: checked.includes(value) }, labels[value]);
    box.addEventListener('change', () => onChange(boxes.filter(isChecked).map((b) => b.getAttribute('data-value') as T)));
    return box;
  });
  return h('fieldset', { class: 'filter-group' }, h('legend', {}, label), ...boxes);
}

function textFilter(label: string, placeholder: string, value: string | undefined, onChange: (value: string | undefined) => void): HTMLElement {
  const field = h(Tags.textField, { placeholder, 'data-focus': `filter:${label}`, size: 24 }, label);
  setValue(field, value ?? '');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const commit = () => {
    clearTimeout(timer);
    onChange(valueOf(field).trim() || undefined);
  };
  field.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(commit, TYPING_PAUSE_MS);
  });
  field.addEventListener('change', commit);
  return field;
}

/**
 * The timeline's filters: kinds, sources, statuses (archived, forgotten), pinned only, a file or
 * folder, a symbol and an agent session. Unchecked groups do not narrow anything.
 */
export function filterForm(filter: TimelineFilter, onChange: (filter: TimelineFilter) => void): FilterForm {
  let current: TimelineFilter = { ...filter };
  const update = (patch: Partial<TimelineFilter>) => {
    current = { ...current, ...patch };
    onChange(current);
  };
  const pinned = h(Tags.checkbox, { 'data-focus': 'filter:pinned', checked: !!filter.pinned }, 'Pinned only');
  pinned.addEventListener('change', () => update({ pinned: isChecked(pinned) || undefined }));
  const team = h(Tags.checkbox, { 'data-focus': 'filter:team', checked: !!filter.team }, 'Team only');
  team.addEventListener('change', () => update({ team: isChecked(team) || undefined }));
  const session = h(Tags.dropdown, { 'data-focus': 'filter:session', 'aria-label': 'Agent session' });
  session.addEventListener('change', () => update({ sessionId: valueOf(session) || undefined }));
  const sessionField = h('label', { class: 'filter-field' }, h('span', {}, 'Agent session'), session);

  const element = h(
    'div',
    { class: 'filters', role: 'group', 'aria-label': 'Filters' },
    checkboxGroup('Kind', MEMORY_KINDS, KIND_LABELS, filter.kinds ?? [], (kinds) => update({ kinds: kinds.length ? kinds : undefined })),
    checkboxGroup('Source', MEMORY_SOURCES, SOURCE_LABELS, filter.sources ?? [], (sources) => update({ sources: sources.length ? sources : undefined })),
    checkboxGroup('Status', ['active', 'archived', 'forgotten'] as const, STATUS_LABELS, filter.statuses ?? DEFAULT_STATUSES, (statuses) => update({ statuses: statuses.length ? statuses : undefined })),
    h(
      'div',
      { class: 'filter-fields' },
      textFilter('File or folder', 'src/db.ts or src/', filter.path, (path) => update({ path })),
      textFilter('Symbol', 'Pool.acquire', filter.symbol, (symbol) => update({ symbol })),
      sessionField,
      pinned,
      team,
    ),
  );

  return {
    element,
    setSessions(sessions) {
      const options = [h(Tags.option, { value: '' }, 'All sessions'), ...sessions.map((s) => h(Tags.option, { value: s.id }, sessionLabel(s)))];
      if (current.sessionId && !sessions.some((s) => s.id === current.sessionId)) options.push(h(Tags.option, { value: current.sessionId }, `Session ${current.sessionId.slice(0, 8)}`));
      session.replaceChildren(...options);
      setValue(session, current.sessionId ?? '');
    },
  };
}
