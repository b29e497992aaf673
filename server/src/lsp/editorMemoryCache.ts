import { GenerationMap } from '../store/generationMap';
import type { MemoryStore } from '../store/memoryStore';

/** Entries kept per project: a few per file the user has open. */
const CAPACITY = 256;

/**
 * What hover and CodeLens read from the database, per file and symbol, kept until a memory
 * changes — by this server or by another process (a hook, the CLI, an MCP server), which
 * `MemoryStore.generation` tells in microseconds — and, for what usage ranks, until a memory is
 * used. VS Code asks for hovers and CodeLenses of the same file over and over while nothing
 * changed; each answer then costs a map lookup.
 */
export class EditorMemoryCache {
  private readonly counted = new GenerationMap<string, unknown>(CAPACITY);
  private readonly ranked = new GenerationMap<string, unknown>(CAPACITY);

  constructor(private readonly store: MemoryStore) {}

  /**
   * What only the memories decide (a CodeLens's counts): kept while a hook shows memories to an
   * agent at every prompt, which moves their usage. At 1,000,000 memories a busy file's counts
   * take ~11–23 ms to read again.
   */
  get<T>(key: string, compute: () => T): T {
    this.counted.sync(this.store.generation());
    return this.counted.getOrCompute(key, compute) as T;
  }

  /** What usage ranks too (a hover's top memories of a symbol). */
  getRanked<T>(key: string, compute: () => T): T {
    this.ranked.sync(this.store.generationWithUsage());
    return this.ranked.getOrCompute(key, compute) as T;
  }
}

const caches = new WeakMap<MemoryStore, EditorMemoryCache>();

/** The cache of a project's store, made on first use. */
export function editorMemoryCache(store: MemoryStore): EditorMemoryCache {
  let cache = caches.get(store);
  if (!cache) {
    cache = new EditorMemoryCache(store);
    caches.set(store, cache);
  }
  return cache;
}
