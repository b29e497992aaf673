import type { MemoryStore } from '../store/memoryStore';

/** Entries kept per project: a few per file the user has open. */
const CAPACITY = 256;

/**
 * What hover and CodeLens read from the database, per file and symbol, kept until a memory
 * changes — by this server or by another process (a hook, the CLI, an MCP server), which
 * `MemoryStore.generation` tells in microseconds. VS Code asks for hovers and CodeLenses of the
 * same file over and over while nothing changed; each answer then costs a map lookup.
 */
export class EditorMemoryCache {
  private generation = -1;
  private readonly entries = new Map<string, unknown>();

  constructor(private readonly store: MemoryStore) {}

  get<T>(key: string, compute: () => T): T {
    const generation = this.store.generation();
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    if (this.entries.has(key)) {
      const value = this.entries.get(key) as T;
      // Least recently used goes first: move this one to the end.
      this.entries.delete(key);
      this.entries.set(key, value);
      return value;
    }
    const value = compute();
    this.entries.set(key, value);
    if (this.entries.size > CAPACITY) this.entries.delete(this.entries.keys().next().value!);
    return value;
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
