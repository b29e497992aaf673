import type { Memory } from '../memory/types';
import type { MemoryStore } from '../store/memoryStore';
import { governsFile } from './scope';

const PIN_ORDER = { hard: 0, soft: 1, none: 2 } as const;

/**
 * Every active constraint that applies to a file: tagged with it (pinned code, symbols, the file),
 * or project-wide, or a glob that matches it. Stale pinned code is included (and says so): a rule
 * whose code is gone is shown as such, never silently dropped. Hard pins first.
 */
export function governingConstraints(store: MemoryStore, path: string): Memory[] {
  const tagged = store.constraintsForFile(path);
  const untagged = store.untaggedConstraints().filter((c) => governsFile(c, path));
  return [...tagged, ...untagged].sort((a, b) => PIN_ORDER[a.pin] - PIN_ORDER[b.pin] || a.createdAt - b.createdAt);
}
