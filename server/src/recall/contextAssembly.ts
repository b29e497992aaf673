import type { Memory } from '../memory/types';
import { scopeLabel, scopeOf } from '../constraints/scope';
import type { ScoredMemory } from './recall';
import { estimateTokens } from './tokens';

/** One memory as it goes into an agent's context. */
export interface ContextItem {
  readonly memory: Memory;
  readonly text: string;
  readonly tokens: number;
  /** Hard-pinned constraints that apply are always given, even past the budget. */
  readonly required: boolean;
}

export interface AssembledContext {
  readonly items: readonly ContextItem[];
  readonly tokens: number;
  /** Candidates that did not fit the budget. */
  readonly leftOut: number;
  /** The text to give the agent ('' when there is nothing). */
  readonly text: string;
}

const LINE_MAX = 400;

function oneLine(text: string, max = LINE_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Texts of memories read once and kept (MemoryStore keeps its constraint lists per generation). */
const itemTexts = new WeakMap<Memory, string>();

/** "- [decision] Pool size is 10 per process — why: bursty traffic …" */
export function itemText(memory: Memory): string {
  let text = itemTexts.get(memory);
  if (text === undefined) {
    text = renderItem(memory);
    itemTexts.set(memory, text);
  }
  return text;
}

function renderItem(memory: Memory): string {
  const title = oneLine(memory.title, 200);
  // A diff's body is its patch: too long for context; its title and why say what and why.
  const bodyLine = memory.kind !== 'diff' && memory.body ? oneLine(memory.body, 300) : '';
  const body = bodyLine && bodyLine !== title && !title.startsWith(bodyLine.replace(/…$/, '')) && !bodyLine.startsWith(title.replace(/…$/, '')) ? `: ${bodyLine}` : '';
  const why = memory.why ? ` — why: ${oneLine(memory.why, 300)}` : '';
  const pin = memory.pin === 'none' ? '' : `, ${memory.pin} pin`;
  const scope = memory.kind === 'constraint' ? ` (applies to ${scopeLabel(scopeOf(memory))})` : '';
  return `- [${memory.kind}${pin}] ${title}${body}${scope}${why}`;
}

function groupKey(memory: Memory): string {
  const file = memory.anchor?.path ?? memory.files[0];
  if (!file) return 'Project';
  return memory.symbols.length ? `${file} › ${memory.symbols.slice(0, 3).join(', ')}` : file;
}

/**
 * Fits recalled memories into a token budget: every hard-pinned constraint among `required`
 * first (always, even past the budget — they must hold), then the rest by score while they fit.
 * Never the same memory twice; `alreadyGiven` (the session's injection log) is left out.
 * The text is grouped by file and symbol and says where it came from.
 */
export function assembleContext(
  required: readonly Memory[],
  ranked: readonly ScoredMemory[],
  budget: number,
  options: { readonly alreadyGiven?: ReadonlySet<string>; readonly heading?: string } = {},
): AssembledContext {
  const seen = new Set<string>(options.alreadyGiven ?? []);
  const items: ContextItem[] = [];
  let tokens = 0;
  let leftOut = 0;
  for (const memory of required) {
    if (seen.has(memory.id)) continue;
    seen.add(memory.id);
    const text = itemText(memory);
    const cost = estimateTokens(text) + 1;
    items.push({ memory, text, tokens: cost, required: true });
    tokens += cost;
  }
  for (const { memory } of ranked) {
    if (seen.has(memory.id)) continue;
    seen.add(memory.id);
    const text = itemText(memory);
    const cost = estimateTokens(text) + 1;
    if (tokens + cost > budget) {
      leftOut++;
      continue;
    }
    items.push({ memory, text, tokens: cost, required: false });
    tokens += cost;
  }
  return { items, tokens, leftOut, text: renderContext(items, options.heading) };
}

function renderContext(items: readonly ContextItem[], heading = 'Engram memory'): string {
  if (!items.length) return '';
  const constraints = items.filter((i) => i.memory.kind === 'constraint');
  const others = items.filter((i) => i.memory.kind !== 'constraint');
  const lines: string[] = [];
  if (constraints.length) {
    lines.push(`${heading} — constraints that apply here:`);
    lines.push(...constraints.map((i) => i.text));
  }
  if (others.length) {
    if (lines.length) lines.push('');
    lines.push(`${heading} — relevant memories:`);
    const groups = new Map<string, ContextItem[]>();
    for (const item of others) groups.set(groupKey(item.memory), [...(groups.get(groupKey(item.memory)) ?? []), item]);
    for (const [key, group] of groups) {
      lines.push(`${key}:`);
      lines.push(...group.map((i) => `  ${i.text}`));
    }
  }
  return lines.join('\n');
}
