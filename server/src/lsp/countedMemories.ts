import { keptGoverningConstraints } from '../constraints/governing';
import { isRuleCandidate } from '../memory/ruleCandidate';
import type { Memory, MemoryId } from '../memory/types';
import type { MemoryStore } from '../store/memoryStore';
import type { CountedMemories } from '../../../contracts/protocol';
import { MEMORY_SELECTION_MAX } from '../../../contracts/viewProtocol';
import { editorMemoryCache } from './editorMemoryCache';

/** The newest memories a clicked CodeLens shows (its counts are exact). */
const FILE_MEMORIES = 500;
/** The same for a declaration's lens. */
const DECLARATION_MEMORIES = 50;

/** What the CodeLens at the top of a file counts. */
export interface FileCounts {
  /** The constraints that govern the file, rule candidates apart. */
  readonly constraints: readonly Memory[];
  /** Rule candidates: not rules until a person accepts them, counted apart, never shown as a rule. */
  readonly candidates: readonly Memory[];
  /** Of the constraints, those of the file's declarations (the lenses above them count them). */
  readonly declared: readonly Memory[];
  /** The file's other active memories. */
  readonly memories: number;
}

/** The counts of a file's top CodeLens (kept until a memory or a constraint changes, not when one is only used). */
export function fileCounts(store: MemoryStore, path: string): FileCounts {
  const governing = keptGoverningConstraints(store, path);
  const memories = editorMemoryCache(store).get(`count:${path}`, () => store.fileMemoryTally(path, 0).total);
  const constraints = governing.filter((c) => !isRuleCandidate(c));
  const declared = constraints.filter((c) => c.files.includes(path) && c.symbols.length);
  return { constraints, candidates: governing.filter(isRuleCandidate), declared, memories };
}

/** Of a file's governing constraints, those of its declaration `name`. */
export function declarationConstraints(counts: FileCounts, name: string): readonly Memory[] {
  return counts.declared.filter((c) => c.symbols.includes(name));
}

/** How many memories each of `names` (a file's declarations) has in the file; those with none are left out. */
export function declarationCounts(store: MemoryStore, path: string, names: readonly string[]): ReadonlyMap<string, number> {
  return editorMemoryCache(store).get(`counts:${path}:${names.join('\n')}`, () => new Map([...store.symbolMemoryTally(path, names, 0)].map(([name, { count }]) => [name, count])));
}

/** The memories a CodeLens counts, as its click shows them: constraints first, then the newest others, within MEMORY_SELECTION_MAX. */
export function countedMemoryIds(store: MemoryStore, path: string, counted: CountedMemories): MemoryId[] {
  const counts = fileCounts(store, path);
  if (counted.of === 'file') {
    const recent = store.fileMemoryTally(path, FILE_MEMORIES).recentIds;
    // A busy file's rules alone can fill a selection (~1,200 at 1,000,000 memories): its newest memories keep their room.
    return [...counts.constraints, ...counts.candidates].slice(0, MEMORY_SELECTION_MAX - recent.length).map((c) => c.id).concat(recent);
  }
  const ofDeclaration = store.symbolMemoryTally(path, [counted.name], DECLARATION_MEMORIES).get(counted.name)?.ids ?? [];
  return declarationConstraints(counts, counted.name).map((c) => c.id).concat(ofDeclaration);
}
