import { h } from './dom';

/** The card's and the row's mark of a memory shared with the team through `.engram/memories.jsonl`. */
export function teamBadge(): HTMLElement {
  return h('span', { class: 'badge team', title: 'Shared with the team: in .engram/memories.jsonl, in every clone' }, 'team');
}
