import { scopeLabel, scopeOf } from '../constraints/scope';
import { ORIGIN_LABELS, originOf } from '../memory/origin';
import { isRuleCandidate } from '../memory/ruleCandidate';
import type { Memory } from '../memory/types';
import { inertText } from './inertText';

/** Texts of memories read once and kept (MemoryStore keeps its constraint lists per generation). */
const itemTexts = new WeakMap<Memory, string>();

/**
 * One memory as a line of the context block: what Engram says about it in brackets (kind, pin,
 * origin), what was stored quoted in «» and made inert, so it reads as a record, never as an
 * instruction: `- [gotcha, from tool output] «npm test failed with "…"; fixed by editing src/a.ts»`.
 */
export function itemText(memory: Memory): string {
  let text = itemTexts.get(memory);
  if (text === undefined) {
    text = renderItem(memory);
    itemTexts.set(memory, text);
  }
  return text;
}

function labelOf(memory: Memory): string {
  const parts: string[] = [memory.kind];
  if (memory.pin !== 'none') parts.push(`${memory.pin} pin`);
  if (isRuleCandidate(memory)) parts.push('candidate, not accepted');
  parts.push(ORIGIN_LABELS[originOf(memory)]);
  return `[${parts.join(', ')}]`;
}

function renderItem(memory: Memory): string {
  const title = inertText(memory.title, 200);
  // A diff's body is its patch: too long for context; its title and why say what and why.
  const bodyLine = memory.kind !== 'diff' && memory.body ? inertText(memory.body, 300) : '';
  const body = bodyLine && !title.includes(bodyLine.replace(/…$/, '')) && !bodyLine.startsWith(title.replace(/…$/, '')) ? `: ${bodyLine}` : '';
  const why = memory.why ? ` — why: «${inertText(memory.why, 300)}»` : '';
  const scope = memory.kind === 'constraint' ? ` (applies to ${inertText(scopeLabel(scopeOf(memory)), 300)})` : '';
  return `- ${labelOf(memory)} «${title}${body}»${scope}${why}`;
}

/** The line above a group of memories about one file and symbol; file names and symbols are made inert too. */
export function groupLine(memory: Memory): string {
  const file = memory.anchor?.path ?? memory.files[0];
  if (!file) return 'About the project:';
  const place = memory.symbols.length ? `${file} › ${memory.symbols.slice(0, 3).join(', ')}` : file;
  return `About ${inertText(place, 300)}:`;
}
