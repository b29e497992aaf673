import { GenerationMap } from '../store/generationMap';
import type { MemoryStore } from '../store/memoryStore';

/** Entries kept per project: a few per file the user has open. */
const CAPACITY = 256;

/**
 * What hover and CodeLens read from the database, per file and symbol, kept until a memory
 * changes or is used — by this server or by another process (a hook, the CLI, an MCP server),
 * which `MemoryStore.generationWithUsage` tells in microseconds. VS Code asks for hovers and CodeLenses of the
 * same file over and over while nothing changed; each answer then costs a map lookup.
 */
export class EditorMemoryCache {
  private readonly entries = new GenerationMap<string, unknown>(CAPACITY);

  constructor(private readonly store: MemoryStore) {}

  get<T>(key: string, compute: () => T): T {
    // Hovers rank a symbol's memories by usage too.
    this.entries.sync(this.store.generationWithUsage());
    return this.entries.getOrCompute(key, compute) as T;
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
