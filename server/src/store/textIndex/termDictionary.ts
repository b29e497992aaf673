const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Unsigned byte order, which sorts UTF-8 as code points (what `sortTerms` and `find` agree on). */
function compareBytes(a: Uint8Array, aFrom: number, aTo: number, b: Uint8Array, bFrom: number, bTo: number): number {
  const n = Math.min(aTo - aFrom, bTo - bFrom);
  for (let i = 0; i < n; i++) {
    const d = a[aFrom + i]! - b[bFrom + i]!;
    if (d) return d;
  }
  return aTo - aFrom - (bTo - bFrom);
}

/** Terms as a dictionary holds them: sorted UTF-8, one after another, and where each starts. */
export interface PackedTerms {
  readonly bytes: Uint8Array;
  /** One more entry than terms. */
  readonly starts: Uint32Array;
}

/** `terms` sorted as a dictionary keeps them, packed. */
export function packTerms(terms: readonly string[]): { packed: PackedTerms; order: number[] } {
  const encoded = terms.map((term) => encoder.encode(term));
  const order = terms.map((_, i) => i).sort((a, b) => compareBytes(encoded[a]!, 0, encoded[a]!.length, encoded[b]!, 0, encoded[b]!.length));
  const starts = new Uint32Array(terms.length + 1);
  order.forEach((from, to) => (starts[to + 1] = starts[to]! + encoded[from]!.length));
  const bytes = new Uint8Array(starts[terms.length]!);
  order.forEach((from, to) => bytes.set(encoded[from]!, starts[to]));
  return { packed: { bytes, starts }, order };
}

/**
 * The index terms of a text index and their ids: those of its build sorted in one byte array (an
 * id is a position, found by binary search), those met since in a map. Tens of thousands of short
 * strings in a Map were ~60 bytes each of the server's heap; here they are their UTF-8 and 4 bytes.
 */
export class TermDictionary {
  private readonly added = new Map<string, number>();
  private scratch = new Uint8Array(64);

  constructor(private readonly packed: PackedTerms) {}

  /** Terms of the build, ids 0 to this − 1; those added since come after. */
  get packedSize(): number {
    return this.packed.starts.length - 1;
  }

  get size(): number {
    return this.packedSize + this.added.size;
  }

  find(term: string): number | undefined {
    const added = this.added.get(term);
    if (added !== undefined) return added;
    if (this.scratch.length < term.length * 3) this.scratch = new Uint8Array(term.length * 3);
    const length = encoder.encodeInto(term, this.scratch).written;
    const { bytes, starts } = this.packed;
    let low = 0;
    let high = this.packedSize;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const order = compareBytes(bytes, starts[mid]!, starts[mid + 1]!, this.scratch, 0, length);
      if (order === 0) return mid;
      if (order < 0) low = mid + 1;
      else high = mid;
    }
    return undefined;
  }

  /** The id of `term`, given a new one if it has none. */
  idOf(term: string): number {
    let id = this.find(term);
    if (id === undefined) {
      id = this.size;
      this.added.set(term, id);
    }
    return id;
  }

  /** Every term, by id. */
  terms(): string[] {
    const { bytes, starts } = this.packed;
    const terms: string[] = [];
    for (let id = 0; id < this.packedSize; id++) terms.push(decoder.decode(bytes.subarray(starts[id], starts[id + 1])));
    for (const term of this.added.keys()) terms.push(term);
    return terms;
  }
}
