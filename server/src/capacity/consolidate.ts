import type { Memory, MemoryId, MemorySource, NewMemory } from '../memory/types';
import type { Project } from '../project';
import type { DiffGroupMember } from '../store/lifecycleStore';
import type { ConsolidationRule } from './settings';

export interface ConsolidatedGroup {
  readonly file: string;
  /** Null for changes to the file outside any symbol. */
  readonly symbol: string | null;
  readonly summary: Memory;
  /** Oldest first; all archived and linked from the summary. */
  readonly sources: readonly MemoryId[];
}

export interface ConsolidationReport {
  readonly groups: readonly ConsolidatedGroup[];
  readonly archived: number;
}

const DAY_MS = 86_400_000;
/** A source's why is quoted on one line, up to this many characters. */
const WHY_CHARS = 200;

/**
 * Folds old diff memories of one file and symbol into one `summary` memory: when at least
 * `minGroup` active, unpinned diffs of that pair were last updated more than `olderThanDays`
 * ago. The summary lists each change (date, title, why) and links to each source
 * ('summarizes'); the sources are archived, never deleted, so search and the timeline still find
 * them and `restore` brings them back. A diff tagged with several symbols joins the largest
 * group. Sources already summarized are skipped, so a second run makes nothing new.
 */
export function consolidateDiffs(project: Pick<Project, 'store' | 'lifecycle'>, rule: ConsolidationRule, now: number = Date.now()): ConsolidationReport {
  const { store, lifecycle } = project;
  return lifecycle.transaction((): ConsolidationReport => {
    const taken = new Set<MemoryId>();
    const groups: ConsolidatedGroup[] = [];
    for (const candidate of groupsOf(lifecycle.oldDiffs(now - rule.olderThanDays * DAY_MS, rule.minGroup))) {
      const ids = candidate.ids.filter((id) => !taken.has(id));
      if (ids.length < rule.minGroup) continue;
      for (const id of ids) taken.add(id);
      const sources = ids.map((id) => store.get(id)!);
      const symbol = candidate.symbol === '' ? null : candidate.symbol;
      // Dated at its last change, so the timeline shows it where the changes it replaces ended.
      const summary = store.add(summaryOf(candidate.file, symbol, sources, rule, now), sources[sources.length - 1]!.updatedAt);
      for (const id of ids) store.link(summary.id, id, 'summarizes');
      lifecycle.setStatus(ids, 'archived');
      groups.push({ file: candidate.file, symbol, summary, sources: ids });
    }
    return { groups, archived: taken.size };
  });
}

/** Largest groups first, so a diff of several symbols goes to the symbol changed most. */
function groupsOf(members: readonly DiffGroupMember[]): { file: string; symbol: string; ids: MemoryId[] }[] {
  const byKey = new Map<string, { file: string; symbol: string; ids: MemoryId[] }>();
  for (const member of members) {
    const key = `${member.file}\u0000${member.symbol}`;
    const group = byKey.get(key) ?? { file: member.file, symbol: member.symbol, ids: [] };
    group.ids.push(member.id);
    byKey.set(key, group);
  }
  return [...byKey.values()].sort((a, b) => b.ids.length - a.ids.length || a.file.localeCompare(b.file) || a.symbol.localeCompare(b.symbol));
}

function summaryOf(file: string, symbol: string | null, sources: readonly Memory[], rule: ConsolidationRule, now: number): NewMemory {
  const first = day(sources[0]!.updatedAt);
  const last = day(sources[sources.length - 1]!.updatedAt);
  const subject = symbol ? `${symbol} in ${file}` : file;
  const span = first === last ? `on ${first}` : `between ${first} and ${last}`;
  const body = sources.map((s) => {
    const why = s.why ? `\n  why: ${oneLine(s.why)}` : '';
    return `- ${day(s.updatedAt)} ${s.title}${why}`;
  });
  return {
    kind: 'summary',
    title: `${sources.length} changes to ${subject} ${span}`,
    body: body.join('\n'),
    source: mostCommonSource(sources),
    importance: Math.max(...sources.map((s) => s.importance)),
    files: [file],
    symbols: symbol ? [symbol] : [],
    meta: {
      consolidated: { file, symbol, count: sources.length, from: sources[0]!.updatedAt, to: sources[sources.length - 1]!.updatedAt, olderThanDays: rule.olderThanDays, at: now },
    },
  };
}

/** Memories have no source for Engram itself; the summary takes the source most of its changes came from. */
function mostCommonSource(sources: readonly Memory[]): MemorySource {
  const counts = new Map<MemorySource, number>();
  for (const s of sources) counts.set(s.source, (counts.get(s.source) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

function day(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > WHY_CHARS ? `${flat.slice(0, WHY_CHARS - 1)}…` : flat;
}
