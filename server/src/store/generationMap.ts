/**
 * Values derived from memories, kept until a memory changes (MemoryStore.generation), at most
 * `capacity` of them (the least recently used go first). For the long-running memory server,
 * which asks the same questions of unchanged memories again and again.
 */
export class GenerationMap<K, V> {
  private generation = -1;
  private readonly values = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  /** Forgets everything when the memories' generation moved since the last call. */
  sync(generation: number): void {
    if (generation === this.generation) return;
    this.values.clear();
    this.generation = generation;
  }

  get(key: K): V | undefined {
    const value = this.values.get(key);
    if (value !== undefined) {
      // Most recently used goes to the end.
      this.values.delete(key);
      this.values.set(key, value);
    }
    return value;
  }

  /** The value for `key`, computed and kept when there is none. */
  getOrCompute(key: K, compute: () => V): V {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const value = compute();
    this.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.values.set(key, value);
    if (this.values.size > this.capacity) this.values.delete(this.values.keys().next().value!);
  }
}
