import { isRuleCandidate } from '../memory/ruleCandidate';
import type { Memory } from '../memory/types';
import { ContextBlock } from './contextBlock';
import { itemText } from './contextItem';
import type { ScoredMemory } from './recall';

/** One memory as it goes into an agent's context. */
export interface ContextItem {
  readonly memory: Memory;
  readonly text: string;
  /** Its line, with the heading or group line it opened. */
  readonly tokens: number;
  /** Hard-pinned constraints that apply are always given, even past the budget. */
  readonly required: boolean;
}

export interface AssembledContext {
  readonly items: readonly ContextItem[];
  /** The whole text's: the items and the block's frame. */
  readonly tokens: number;
  /** Candidates that did not fit the budget. */
  readonly leftOut: number;
  /** The text to give the agent ('' when there is nothing). */
  readonly text: string;
}

/**
 * Fits recalled memories into a token budget, frame included: every hard-pinned constraint
 * among `required` first (always, even past the budget — they must hold), then the rest by score
 * while they fit. Never the same memory twice; `alreadyGiven` (the session's injection log) is
 * left out, and so are rule candidates nobody accepted: agents are not given them as rules.
 * The text is a data block (contextBlock.ts) grouped by file and symbol.
 */
export function assembleContext(
  required: readonly Memory[],
  ranked: readonly ScoredMemory[],
  budget: number,
  options: { readonly alreadyGiven?: ReadonlySet<string>; readonly title?: string } = {},
): AssembledContext {
  const seen = new Set<string>(options.alreadyGiven ?? []);
  const block = new ContextBlock(options.title ?? 'Engram memory');
  const items: ContextItem[] = [];
  let leftOut = 0;
  const take = (memory: Memory, isRequired: boolean): void => {
    if (seen.has(memory.id) || isRuleCandidate(memory)) return;
    seen.add(memory.id);
    if (!isRequired && (block.isEmpty ? block.frameTokens : block.tokens) + block.costOf(memory) > budget) {
      leftOut++;
      return;
    }
    items.push({ memory, text: itemText(memory), tokens: block.add(memory), required: isRequired });
  };
  for (const memory of required) take(memory, true);
  for (const { memory } of ranked) take(memory, false);
  return { items, tokens: block.tokens, leftOut, text: block.text() };
}
