/**
 * Values derived from memories, kept until a memory changes (MemoryStore.generation), at most
 * `capacity` of them. For the long-running memory server, which asks the same questions of
 * unchanged memories again and again.
 *
 * Eviction is by two generations rather than an exact LRU order: values live in a young map;
 * when it holds half the capacity it becomes the old map and the previous old map is dropped;
 * a value read from the old map moves back to the young one. Recently used values survive, and a
 * read costs one or two hash lookups — reordering a 20,000-entry Map on every read cost recall
 * more than its SQL.
 */
export class GenerationMap<K, V> {
  private generation = -1;
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  /** Forgets everything when the memories' generation moved since the last call. */
  sync(generation: number): void {
    if (generation === this.generation) return;
    this.young.clear();
    this.old.clear();
    this.generation = generation;
  }

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const older = this.old.get(key);
    if (older !== undefined) this.set(key, older);
    return older;
  }

  /** The value for `key`, computed and kept when there is none. */
  getOrCompute(key: K, compute: () => V): V {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const value = compute();
    this.set(key, value);
    return value;
  }

  /** Forgets one value (a memory that changed), keeping the rest. */
  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  set(key: K, value: V): void {
    this.young.set(key, value);
    if (this.young.size >= Math.max(1, this.capacity / 2)) {
      this.old = this.young;
      this.young = new Map();
    }
  }
}
