import type { Anchor, Memory, MemoryKind } from '../memory/types';
import type { Project } from '../project';

/** How many full-text matches are compared in full. */
const CANDIDATES = 20;
/** Words the candidates must all contain: the longest (rarest) few are enough to narrow it down. */
const REQUIRED_WORDS = 12;

/** Case, accents' composition, punctuation and spacing do not make a memory different. */
export function normalizedText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * An FTS5 query matching only memories that contain every one of the text's longest words, each
 * quoted (a phrase, tokenized as the index is). A memory with the same normalized text contains
 * them all, so the lookup stays exact and cheap — it runs inside the write lock.
 */
function allWordsQuery(text: string): string | null {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].filter((w) => w.length > 1 || /\d/.test(w));
  if (!words.length) return null;
  return words
    .sort((a, b) => b.length - a.length)
    .slice(0, REQUIRED_WORDS)
    .map((w) => `"${w}"`)
    .join(' AND ');
}

export interface MemoryDraft {
  readonly kind: MemoryKind;
  /** As it will be stored: already redacted, so it compares with what the store holds. */
  readonly text: string;
  readonly files: readonly string[];
  readonly glob: string | null;
  readonly anchor: Omit<Anchor, 'stale'> | null;
}

function sameScope(memory: Memory, draft: MemoryDraft): boolean {
  const files = [...new Set(draft.files)].sort();
  if (files.length !== memory.files.length || files.some((f, i) => f !== memory.files[i])) return false;
  if ((typeof memory.meta.glob === 'string' ? memory.meta.glob : null) !== draft.glob) return false;
  if (!draft.anchor) return true;
  const a = memory.anchor;
  return !!a && a.path === draft.anchor.path && a.range.startLine === draft.anchor.range.startLine && a.range.endLine === draft.anchor.range.endLine;
}

/**
 * A memory that already says what the draft says: same kind, the same text once normalized (its
 * body, or its title when that is all it has), about the same files, glob and pinned lines.
 * Forgotten memories do not count: the user put them away. Candidates come from the full-text
 * index, so the check costs one selective FTS query however large the store is.
 */
export function findNearDuplicate(project: Project, draft: MemoryDraft): Memory | null {
  const wanted = normalizedText(draft.text);
  const query = allWordsQuery(draft.text);
  if (!wanted || !query) return null;
  for (const { memory } of project.store.search(query, CANDIDATES)) {
    if (memory.kind !== draft.kind || memory.status === 'forgotten') continue;
    const same = normalizedText(memory.body) === wanted || (!memory.body.trim() && normalizedText(memory.title) === wanted);
    if (same && sameScope(memory, draft)) return memory;
  }
  return null;
}
