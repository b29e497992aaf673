import type { SessionInfo } from '../../../contracts/viewProtocol';
import type { ViewChannel } from '../shared/channel';
import { h } from '../shared/dom';
import { dateTime, plural, sessionLabel } from '../shared/format';
import { icon } from '../shared/icons';
import { memoryCard, type CardHost } from '../shared/memoryCard';
import { Tags } from '../shared/toolkit';
import { compactionText, type Row } from './rows';

export interface DetailPaneDeps {
  readonly channel: ViewChannel<unknown>;
  readonly cardHost: CardHost;
  readonly sessions: ReadonlyMap<string, SessionInfo>;
  /** Is this row still the selected one (answers may come after the selection moved)? */
  readonly isSelected: (row: Row) => boolean;
  readonly showInjections: (sessionId: string) => void;
  readonly report: (text: string, kind: 'info' | 'error') => void;
}

/**
 * The pane beside the timeline list: the selected memory whole (its full body fetched when the
 * list had a cut one) with every action, or what a compaction point means.
 */
export function renderDetail(pane: HTMLElement, row: Row | null, projectRoot: string | null, deps: DetailPaneDeps): void {
  if (!row || !projectRoot) {
    pane.replaceChildren(h('p', { class: 'muted' }, 'Select a memory (↑ ↓, or click) to see it whole and act on it: pin, edit, open its diff, copy it as agent context, forget it.'));
    return;
  }
  if (row.kind === 'compaction') {
    const { entry } = row;
    const session = deps.sessions.get(entry.sessionId) ?? { id: entry.sessionId, title: null };
    const given = h(Tags.button, { appearance: 'secondary', 'data-focus': 'compaction:given' }, 'What the session was given');
    given.addEventListener('click', () => deps.showInjections(entry.sessionId));
    pane.replaceChildren(
      h(
        'article',
        { class: 'compaction-detail' },
        h('h3', {}, icon('compaction'), ` ${compactionText(entry)}`),
        h(
          'p',
          {},
          `${sessionLabel(session)}'s context was compacted (${entry.trigger}) at ${dateTime(entry.at)}. Claude Code dropped what it had been told; Engram gave ${plural(entry.carriedOver, 'memory', 'memories')} again at the session start that followed (constraints, the session's decisions, recent changes).`,
        ),
        h('div', { class: 'actions' }, given),
      ),
    );
    return;
  }
  if (row.kind !== 'memory') return;
  const { memory, score } = row;
  pane.replaceChildren(memoryCard(memory, { projectRoot, detailed: true, score }, deps.cardHost));
  // A memory only on the team hub is not in this clone's store, which the detail request reads.
  if (!memory.bodyTruncated || memory.hub) return;
  deps.channel.call('detail', { projectRoot, id: memory.id }).then(
    (full) => {
      if (full && deps.isSelected(row)) pane.replaceChildren(memoryCard(full, { projectRoot, detailed: true, score }, deps.cardHost));
    },
    (error: Error) => deps.report(`Could not load the whole memory: ${error.message}`, 'error'),
  );
}
