import { describeAge } from '../memory/age';
import type { Memory } from '../memory/types';

function scopeOf(constraint: Memory): string {
  if (constraint.anchor) {
    const { startLine, endLine } = constraint.anchor.range;
    const lines = startLine === endLine ? `line ${startLine + 1}` : `lines ${startLine + 1}–${endLine + 1}`;
    return `${constraint.anchor.path}, ${lines}${constraint.anchor.stale ? ' (stale: the code it was pinned to is gone)' : ''}`;
  }
  if (constraint.symbols.length) return constraint.symbols.join(', ');
  return constraint.files.join(', ') || 'whole project';
}

/** Hover Markdown for one constraint: rule, scope, pin, age, origin. */
export function constraintMarkdown(constraint: Memory, now: number = Date.now()): string {
  const pin = constraint.pin === 'none' ? 'constraint' : `${constraint.pin}-pinned constraint`;
  const lines = [`**Engram · ${pin}** — ${escapeMarkdown(constraint.title)}`];
  if (constraint.body && constraint.body !== constraint.title) lines.push('', escapeMarkdown(constraint.body));
  if (constraint.why) lines.push('', `_Why:_ ${escapeMarkdown(constraint.why)}`);
  lines.push('', `_${escapeMarkdown(scopeOf(constraint))} · pinned ${describeAge(constraint.createdAt, now)} · from ${constraint.source}_`);
  return lines.join('\n');
}

/** Memory text comes from users and agents: it must not inject links or HTML into the hover. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}\[\]()#+\-.!<>|]/g, (c) => `\\${c}`);
}
