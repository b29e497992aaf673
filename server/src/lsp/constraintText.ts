import { describeAge } from '../memory/age';
import { isRuleCandidate } from '../memory/ruleCandidate';
import type { Memory } from '../memory/types';
import { isFromHub } from '../hub/hubMark';
import { isFromTeamFile, isShared } from '../team/teamMark';

function scopeOf(constraint: Memory): string {
  if (constraint.anchor) {
    const { startLine, endLine } = constraint.anchor.range;
    const lines = startLine === endLine ? `line ${startLine + 1}` : `lines ${startLine + 1}–${endLine + 1}`;
    return `${constraint.anchor.path}, ${lines}${constraint.anchor.stale ? ' (stale: the code it was pinned to is gone)' : ''}`;
  }
  if (constraint.symbols.length) return constraint.symbols.join(', ');
  return constraint.files.join(', ') || 'whole project';
}

/** What a hover calls a rule that was extracted, not pinned: agents are not given it (memory/ruleCandidate.ts). */
export const CANDIDATE_LABEL = 'rule candidate — not given to agents until you accept it';

/** Hover Markdown for one constraint: rule (or candidate), scope, pin, age, origin. */
export function constraintMarkdown(constraint: Memory, now: number = Date.now()): string {
  const candidate = isRuleCandidate(constraint);
  const pin = candidate ? CANDIDATE_LABEL : constraint.pin === 'none' ? 'constraint' : `${constraint.pin}-pinned constraint`;
  // "team": in the project's team file, for every clone (docs/team.md).
  const team = isShared(constraint) ? ' · team' : '';
  const lines = [`**Engram · ${pin}${team}** — ${escapeMarkdown(constraint.title)}`];
  if (constraint.body && constraint.body !== constraint.title) lines.push('', escapeMarkdown(constraint.body));
  if (constraint.why) lines.push('', `_Why:_ ${escapeMarkdown(constraint.why)}`);
  const when = `${candidate ? 'extracted' : 'pinned'} ${describeAge(constraint.createdAt, now)}`;
  lines.push('', `_${escapeMarkdown(scopeOf(constraint))} · ${when} · from ${isFromTeamFile(constraint) || isFromHub(constraint) ? 'the team' : constraint.source}_`);
  return lines.join('\n');
}

/** Memory text comes from users and agents: it must not inject links or HTML into the hover. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}\[\]()#+\-.!<>|]/g, (c) => `\\${c}`);
}
