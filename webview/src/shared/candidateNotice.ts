import type { ViewMemory } from '../../../contracts/viewProtocol';
import { h } from './dom';

/** How the panel and the timeline tell an extracted rule from one a person made (memory/ruleCandidate.ts). */
export const CANDIDATE_NOTICE = 'Rule candidate — not given to agents until you accept it.';
const CANDIDATE_DETAIL = 'Engram extracted it from an agent session. Accepting pins it: agents are given it from then on.';

/** The card's and the row's badge: a candidate is not a rule yet. */
export function candidateBadge(memory: ViewMemory): HTMLElement | null {
  if (!memory.candidate) return null;
  return h('span', { class: 'badge candidate', title: CANDIDATE_NOTICE }, 'candidate');
}

/** The card's note on a candidate, with its Accept action (`accept`: the card's button, which pins it). */
export function candidateNotice(memory: ViewMemory, accept: HTMLElement): HTMLElement | null {
  if (!memory.candidate) return null;
  return h('div', { class: 'candidate-notice', role: 'note' }, h('p', {}, h('strong', {}, CANDIDATE_NOTICE), ' ', CANDIDATE_DETAIL), accept);
}
