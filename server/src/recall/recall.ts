import type { Memory } from '../memory/types';
import type { MemoryStore } from '../store/memoryStore';
import { rangeContainsLine } from '../anchors/anchorFromText';
import { toFtsQuery } from './terms';

export interface RecallRequest {
  readonly query?: string;
  /** Project-relative path of the file in focus. */
  readonly file?: string;
  /** Zero-based line in `file`. */
  readonly line?: number;
  readonly limit: number;
}

/** One named part of a score, so every result can say why it ranked where it did. */
export interface ScorePart {
  readonly reason: string;
  readonly points: number;
}

export interface ScoredMemory {
  readonly memory: Memory;
  readonly score: number;
  readonly explanation: readonly ScorePart[];
}

const CANDIDATES = 200;
const DAY_MS = 86_400_000;

/**
 * Recall v1: full-text relevance, file and line match, pin level and recency, summed. The
 * weights are deliberately simple here and become settings with the full scoring model.
 */
export function recall(store: MemoryStore, request: RecallRequest, now: number = Date.now()): ScoredMemory[] {
  const parts = new Map<string, { memory: Memory; explanation: ScorePart[] }>();
  const add = (memory: Memory, part: ScorePart) => {
    if (memory.status !== 'active') return;
    const entry = parts.get(memory.id) ?? { memory, explanation: [] };
    entry.explanation.push(part);
    parts.set(memory.id, entry);
  };

  const ftsQuery = request.query ? toFtsQuery(request.query) : null;
  if (ftsQuery) {
    for (const { memory, rank } of store.search(ftsQuery, CANDIDATES)) {
      // bm25 ranks are negative, lower is better; any match earns 1, relevance up to 2 more.
      add(memory, { reason: 'text match', points: round(1 + 2 * (1 - Math.exp(rank / 5))) });
    }
  }
  if (request.file) {
    for (const memory of store.forFile(request.file, CANDIDATES)) {
      add(memory, { reason: `tagged with ${request.file}`, points: 2 });
      if (request.line !== undefined && memory.anchor && !memory.anchor.stale && rangeContainsLine(memory.anchor.range, request.line)) {
        add(memory, { reason: `anchored at line ${request.line + 1}`, points: 2 });
      }
    }
  }
  if (!ftsQuery && !request.file) {
    for (const memory of store.recent(CANDIDATES)) add(memory, { reason: 'recent', points: 0 });
  }

  const scored: ScoredMemory[] = [];
  for (const { memory, explanation } of parts.values()) {
    if (memory.pin !== 'none') explanation.push({ reason: `${memory.pin} pin`, points: memory.pin === 'hard' ? 3 : 1.5 });
    const ageDays = Math.max(0, now - memory.updatedAt) / DAY_MS;
    explanation.push({ reason: `updated ${Math.round(ageDays)} d ago`, points: round(Math.exp(-ageDays / 30)) });
    scored.push({ memory, score: round(explanation.reduce((sum, p) => sum + p.points, 0)), explanation });
  }
  scored.sort((a, b) => b.score - a.score || b.memory.updatedAt - a.memory.updatedAt);
  return scored.slice(0, request.limit);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
