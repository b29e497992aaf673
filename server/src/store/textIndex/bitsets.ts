import type { PostingList } from './postings';

/** Shorter lists are searched (Postings.has, ~8 steps); a bitset pays off for the long ones. */
export const BITSET_MIN_POSTINGS = 256;

/**
 * A bit per memory for the common words of queries, built when a query first needs one and kept
 * within a byte budget, least recently used dropped first (at 100,000 memories a bitset is
 * 12.5 KB). Recall checks those words in hundreds of memories and ANDs several of them to find
 * the newest memories with all: 32 memories a step instead of a search per memory.
 */
export class Bitsets {
  private readonly kept = new Map<unknown, { readonly bits: Uint32Array; readonly version: number }>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  /** The bitset of a list, current with it. */
  of(postings: PostingList): Uint32Array {
    const key = postings.key;
    const kept = this.kept.get(key);
    if (kept) {
      this.kept.delete(key);
      if (kept.version === postings.version) {
        this.kept.set(key, kept);
        return kept.bits;
      }
      this.bytes -= kept.bits.byteLength;
    }
    const bits = bitsetOf(postings);
    this.kept.set(key, { bits, version: postings.version });
    this.bytes += bits.byteLength;
    for (const [oldest, { bits: dropped }] of this.kept) {
      if (this.bytes <= this.budgetBytes || oldest === key) break;
      this.kept.delete(oldest);
      this.bytes -= dropped.byteLength;
    }
    return bits;
  }

  /** Bytes held, for the bench. */
  get size(): number {
    return this.bytes;
  }
}

function bitsetOf(postings: PostingList): Uint32Array {
  return bitsetOfRowids(postings.rowids, postings.count);
}

/** A bit per rowid of the first `count` of `rowids`, ascending. */
export function bitsetOfRowids(rowids: ArrayLike<number>, count: number = rowids.length): Uint32Array {
  const bits = new Uint32Array(count ? (rowids[count - 1]! >>> 5) + 1 : 0);
  for (let i = 0; i < count; i++) {
    const rowid = rowids[i]!;
    bits[rowid >>> 5]! |= 1 << (rowid & 31);
  }
  return bits;
}

export function hasBit(bits: Uint32Array, rowid: number): boolean {
  const word = rowid >>> 5;
  return word < bits.length && ((bits[word]! >>> (rowid & 31)) & 1) === 1;
}

/** Calls `visit` with each rowid whose bit is set, highest first, while it returns true. */
export function forEachBitDescending(bits: Uint32Array, visit: (rowid: number) => boolean): void {
  for (let w = bits.length - 1; w >= 0; w--) {
    for (let word = bits[w]!; word !== 0; ) {
      const bit = 31 - Math.clz32(word);
      if (!visit(w * 32 + bit)) return;
      word &= ~(1 << bit);
    }
  }
}

/**
 * The highest rowids set in every one of `bitsets`, highest first, until `want` of them pass
 * `keep`: the newest memories with all of some words, 32 memories a step.
 */
export function newestInEvery(bitsets: readonly Uint32Array[], want: number, keep: (rowid: number) => boolean = () => true): number[] {
  const found: number[] = [];
  if (!bitsets.length) return found;
  let top = Infinity;
  for (const bits of bitsets) top = Math.min(top, bits.length - 1);
  for (let w = top; w >= 0 && found.length < want; w--) {
    let word = bitsets[0]![w]!;
    for (let l = 1; word !== 0 && l < bitsets.length; l++) word &= bitsets[l]![w]!;
    while (word !== 0 && found.length < want) {
      const bit = 31 - Math.clz32(word);
      const rowid = w * 32 + bit;
      if (keep(rowid)) found.push(rowid);
      word &= ~(1 << bit);
    }
  }
  return found;
}
