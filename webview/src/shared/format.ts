import type { MemoryKind, MemorySource } from '../../../server/src/memory/types';

export const KIND_LABELS: Readonly<Record<MemoryKind, string>> = {
  diff: 'Change',
  constraint: 'Constraint',
  decision: 'Decision',
  gotcha: 'Gotcha',
  summary: 'Summary',
  note: 'Note',
  fact: 'Fact',
  intent: 'Intent',
};

export const SOURCE_LABELS: Readonly<Record<MemorySource, string>> = {
  editor: 'Editor',
  disk: 'On disk',
  claude: 'Claude Code',
  user: 'You',
  mcp: 'MCP',
  git: 'Git history',
};

// The same words as the hovers: one definition (server/src/memory/age.ts).
export { describeAge as age } from '../../../server/src/memory/age';

export function dateTime(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function time(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/** The local calendar day, as a key and as a heading ("Today", "Yesterday", "Monday 3 November 2025"). */
export function dayKey(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
}

export function dayHeading(ms: number, now: number = Date.now()): string {
  if (dayKey(ms) === dayKey(now)) return 'Today';
  if (dayKey(ms) === dayKey(now - 86_400_000)) return 'Yesterday';
  return new Date(ms).toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
}

/** "Claude Code · Fix the pool size (a1b2c3d4)" or "Claude Code session a1b2c3d4". */
export function sessionLabel(session: { readonly id: string; readonly title: string | null }): string {
  const short = session.id.slice(0, 8);
  return session.title ? `Claude Code · ${session.title} (${short})` : `Claude Code session ${short}`;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? word : many}`;
}
