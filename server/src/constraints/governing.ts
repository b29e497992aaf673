import type { Memory } from '../memory/types';
import { GenerationMap } from '../store/generationMap';
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

/** Files whose governing constraints are kept (hover and CodeLens ask for the open ones again and again). */
const FILES_KEPT = 64;
const kept = new WeakMap<MemoryStore, GenerationMap<string, readonly Memory[]>>();

/**
 * governingConstraints, kept per file until a constraint changes. Not until another memory
 * changes, nor until one is shown: at 1,000,000 memories a busy file has ~900 of them (70–100 ms
 * to read again after every agent edit, prompt or hook). Callers must not change them.
 */
export function keptGoverningConstraints(store: MemoryStore, path: string): readonly Memory[] {
  let files = kept.get(store);
  if (!files) {
    files = new GenerationMap(FILES_KEPT);
    kept.set(store, files);
  }
  files.sync(store.constraintGeneration());
  return files.getOrCompute(path, () => governingConstraints(store, path));
}
