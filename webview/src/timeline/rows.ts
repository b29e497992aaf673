import type { SessionInfo, TimelineEntry, ViewMemory } from '../../../contracts/viewProtocol';
import { candidateBadge } from '../shared/candidateNotice';
import { hubBadge, teamBadge } from '../shared/teamBadge';
import { h } from '../shared/dom';
import { dayHeading, dayKey, KIND_LABELS, plural, sessionLabel, SOURCE_LABELS, time } from '../shared/format';
import { icon } from '../shared/icons';

type Compaction = Extract<TimelineEntry, { type: 'compaction' }>;
type Explanation = readonly { readonly reason: string; readonly points: number }[];

/** One line of the timeline list: headings for days and sessions between the entries. */
export type Row =
  | { readonly kind: 'day'; readonly key: string; readonly label: string }
  | { readonly kind: 'session'; readonly key: string; readonly label: string; readonly sessionId: string | null }
  | { readonly kind: 'memory'; readonly key: string; readonly memory: ViewMemory; readonly score?: { readonly score: number; readonly explanation: Explanation } }
  | { readonly kind: 'compaction'; readonly key: string; readonly entry: Compaction }
  | { readonly kind: 'heading'; readonly key: string; readonly label: string }
  | { readonly kind: 'more'; readonly key: string; readonly label: string };

const HEIGHTS: Readonly<Record<Row['kind'], number>> = { day: 34, session: 26, memory: 50, compaction: 34, heading: 30, more: 40 };

export function rowHeight(row: Row): number {
  return HEIGHTS[row.kind];
}

export function isSelectable(row: Row): boolean {
  return row.kind === 'memory' || row.kind === 'compaction';
}

/** Where grouping stands after the rows built so far, so the next page continues the same groups. */
export interface GroupCursor {
  day: string | null;
  session: string | null | undefined;
}

/**
 * Turns entries (newest first) into rows: a heading at each new day, and within a day a heading
 * whenever the agent session changes (memories made outside any session are grouped as such).
 */
export function groupRows(entries: readonly TimelineEntry[], sessions: ReadonlyMap<string, SessionInfo>, cursor: GroupCursor): Row[] {
  const rows: Row[] = [];
  for (const entry of entries) {
    const at = entry.type === 'memory' ? entry.memory.updatedAt : entry.at;
    const sessionId = entry.type === 'memory' ? entry.memory.sessionId : entry.sessionId;
    const day = dayKey(at);
    if (day !== cursor.day) {
      rows.push({ kind: 'day', key: `day:${day}`, label: dayHeading(at) });
      cursor.day = day;
      cursor.session = undefined;
    }
    if (sessionId !== cursor.session) {
      const info = sessionId ? sessions.get(sessionId) ?? { id: sessionId, title: null } : null;
      rows.push({ kind: 'session', key: `session:${day}:${sessionId ?? '-'}:${at}`, label: info ? sessionLabel(info) : 'Editor, disk and you', sessionId });
      cursor.session = sessionId;
    }
    rows.push(entry.type === 'memory' ? { kind: 'memory', key: entry.memory.id, memory: entry.memory } : { kind: 'compaction', key: `compaction:${entry.sessionId}:${entry.at}`, entry });
  }
  return rows;
}

function badges(memory: ViewMemory): HTMLElement[] {
  const out: HTMLElement[] = [];
  const candidate = candidateBadge(memory);
  if (candidate) out.push(candidate);
  if (memory.pin !== 'none') out.push(h('span', { class: `badge pin-${memory.pin}` }, icon('pin'), `${memory.pin} pin`));
  if (memory.hub) out.push(hubBadge(memory.hub));
  else if (memory.team) out.push(teamBadge());
  if (memory.anchor?.stale) out.push(h('span', { class: 'badge stale' }, 'stale'));
  if (memory.status !== 'active') out.push(h('span', { class: `badge status-${memory.status}` }, memory.status));
  return out;
}

export function compactionText(entry: Compaction): string {
  return `Context compacted here (${entry.trigger}) — ${plural(entry.carriedOver, 'memory', 'memories')} carried over`;
}

export function renderRow(row: Row, selected: boolean): HTMLElement {
  switch (row.kind) {
    case 'day':
      return h('div', { class: 'row day' }, h('h3', {}, row.label));
    case 'session':
      return h('div', { class: `row session-heading${row.sessionId ? '' : ' no-session'}` }, row.sessionId ? icon('session') : null, h('span', {}, row.label));
    case 'heading':
      return h('div', { class: 'row results-heading' }, row.label);
    case 'more':
      return h('div', { class: 'row more muted' }, row.label);
    case 'compaction':
      return h(
        'div',
        { class: `row compaction${selected ? ' selected' : ''}`, 'aria-label': `${compactionText(row.entry)}, at ${time(row.entry.at)}` },
        icon('compaction'),
        h('span', { class: 'when' }, time(row.entry.at)),
        h('span', { class: 'text' }, compactionText(row.entry)),
      );
    case 'memory': {
      const m = row.memory;
      const place = m.place ? ` · ${m.place}` : '';
      const origin = m.hub ? ` · ${m.hub.project}, by ${m.hub.author}` : '';
      const score = row.score ? ` · score ${row.score.score.toFixed(2)}` : '';
      return h(
        'div',
        { class: `row memory kind-${m.kind}${selected ? ' selected' : ''}${m.status !== 'active' ? ' inactive' : ''}`, 'aria-label': `${KIND_LABELS[m.kind]}: ${m.title}`, 'data-memory-id': m.id },
        h('span', { class: `kind-icon kind-${m.kind}` }, icon(m.kind, KIND_LABELS[m.kind])),
        h(
          'div',
          { class: 'lines' },
          h('div', { class: 'line1' }, h('span', { class: 'title' }, m.title), ...badges(m)),
          h('div', { class: 'line2 muted' }, `${time(m.updatedAt)} · ${KIND_LABELS[m.kind]} · ${SOURCE_LABELS[m.source]}${place}${origin}${score}`),
        ),
      );
    }
  }
}
