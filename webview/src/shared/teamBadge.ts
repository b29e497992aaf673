import type { ViewMemory } from '../../../contracts/viewProtocol';
import { h } from './dom';

type HubOrigin = NonNullable<ViewMemory['hub']>;

/** The card's and the row's mark of a memory shared with the team through `.engram/memories.jsonl`. */
export function teamBadge(): HTMLElement {
  return h('span', { class: 'badge team', title: 'Shared with the team: in .engram/memories.jsonl, in every clone' }, 'team');
}

/** The card's and the row's mark of a memory found on the team hub that this clone does not have. */
export function hubBadge(hub: HubOrigin): HTMLElement {
  return h('span', { class: 'badge hub', title: `On the team hub only, not in this clone: ${hub.project}, by ${hub.author}` }, 'team hub');
}

/** Above a card's actions: whose it is, and why nothing but Copy can be done to it from here. */
export function hubOnlyNote(hub: HubOrigin): HTMLElement {
  return h(
    'p',
    { class: 'hub-note', role: 'note' },
    h('span', { class: 'hub-origin' }, `${hub.project} · by ${hub.author}`),
    ' — on the team hub, not in this clone’s memory: read-only here, but for Copy (its owner’s clone pins, edits or forgets it).',
  );
}
