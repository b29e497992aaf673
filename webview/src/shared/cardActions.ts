import type { ViewCalls } from '../../../contracts/webviewMessages';
import type { ViewMemory } from '../../../contracts/viewProtocol';

/** A button a memory card can offer; memoryCard.ts draws each. */
export type CardAction = 'pin' | 'pin-hard' | 'unpin' | 'edit' | 'share' | 'unshare' | 'diff' | 'copy' | 'archive' | 'forget' | 'restore';

/**
 * What a card offers for a memory, in order. A rule candidate's Accept is in its notice, not here.
 * A memory only on the team hub (`hub`) offers only Copy as context, from the text its card
 * carries: every other action works on this clone's store, which does not hold it.
 */
export function cardActions(memory: ViewMemory, detailed: boolean): CardAction[] {
  if (memory.hub) return ['copy'];
  const actions: CardAction[] = [];
  if (memory.status === 'active') {
    if (!memory.candidate) actions.push(...(memory.pin === 'none' ? (['pin', 'pin-hard'] as const) : (['unpin'] as const)));
    // Sharing writes the project's team file; the user commits it (docs/team.md).
    actions.push('edit', memory.team ? 'unshare' : 'share');
  }
  if (memory.kind === 'diff' && memory.files.length) actions.push('diff');
  actions.push('copy');
  if (memory.status === 'active') {
    if (detailed && memory.pin !== 'hard') actions.push('archive');
    actions.push('forget');
  } else {
    actions.push('restore');
    if (memory.status === 'archived') actions.push('forget');
  }
  return actions;
}

/** The call behind "Copy as context": this clone's memory by id; a hub-only one by the text its card carries. */
export type CopyCall = { readonly method: 'copy'; readonly params: ViewCalls['copy']['params'] } | { readonly method: 'copyText'; readonly params: ViewCalls['copyText']['params'] };

export function copyCall(memory: ViewMemory, projectRoot: string): CopyCall {
  return memory.hub ? { method: 'copyText', params: { title: memory.title, text: memory.hub.context } } : { method: 'copy', params: { projectRoot, id: memory.id } };
}
