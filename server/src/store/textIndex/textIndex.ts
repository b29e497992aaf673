import { Bitsets } from './bitsets';
import { Postings } from './postings';
import { packTerms, TermDictionary } from './termDictionary';
import type { TextIndexImage } from './textIndexImage';
import { decodePostings, TermPostings, type PostingSource } from './termPostings';
import { ByteWriter, decodeGaps } from './varints';

/** bm25's column weights for memory_fts (title, body, why, tags): the store's search and this index use the same. */
export const BM25_COLUMN_WEIGHTS = [4, 1, 2, 2] as const;

/** A memory's full-text columns, as memory_fts holds them. */
export interface IndexedRow {
  readonly rowid: number;
  readonly title: string;
  readonly body: string;
  readonly why: string | null;
  readonly tags: string;
}

/** The index terms FTS5 makes of each run of word characters (runs this index has not seen yet). */
export type StemRuns = (runs: readonly string[]) => string[][];

/**
 * Where FTS5's unicode61 tokenizer may start a token: ASCII letters and digits, and anything not
 * ASCII (FTS5 itself splits such a run further, so the run goes through it whole). Every other
 * ASCII character separates tokens, in FTS5 as here.
 */
const RUN = /[A-Za-z0-9\u0080-\uffff]+/g;
const ASCII_RUN = /^[\x00-\x7f]*$/;
const MAX_ROWID_IN_ARRAY = 1 << 24;
/** What the bitsets of common words may hold (bitsets.ts): ~1,300 words at 100,000 memories. */
const BITSET_BYTES = 16 * 1024 * 1024;
/** Runs whose index terms are kept while every memory is read (a build: the corpus's words). */
const RUNS_KEPT_BUILDING = 200_000;
/** Runs kept once packed, when the index meets only queries' words and changed memories'. */
const RUNS_KEPT = 20_000;
const FREQ_MAX = 0xffff;

function emptyImage(): TextIndexImage {
  return {
    generation: -1,
    terms: { bytes: new Uint8Array(0), starts: new Uint32Array(1) },
    postingBytes: new Uint8Array(0),
    postingStarts: new Uint32Array(1),
    postingCounts: new Uint32Array(0),
    docRowids: new Int32Array(0),
    docLengths: new Uint32Array(0),
    docBytes: new Uint8Array(0),
    docStarts: new Uint32Array(1),
  };
}

/**
 * An inverted index of memory_fts in memory, term for term what FTS5 holds (its own tokenizer
 * stems every word, store/textIndex/stemmer.ts): postings with bm25's weighted frequencies and
 * each memory's length, so the memory server ranks and checks words without SQLite
 * (recall/indexTextSearch.ts).
 *
 * Packed (textIndexImage.ts): every list in one byte array of varint gaps, ~3.5 bytes a posting
 * with each memory's term ids (what to take out when it changes); at 100,000 memories ~20 MB,
 * where typed arrays per term and an object per memory were ~80 MB of the server's RSS. Memories
 * changed since it was packed are kept apart, in growable lists (Postings), and the packed
 * postings of those taken out are skipped; `compact` (or a new build) packs them in.
 */
export class TextIndex implements PostingSource {
  private packed!: TextIndexImage;
  private dictionary!: TermDictionary;
  /** Postings of memories put since the index was packed, by term id. */
  private readonly added = new Map<number, Postings>();
  /** Term ids of memories put since it was packed, by rowid. */
  private readonly addedDocs = new Map<number, Int32Array>();
  /** Packed memories taken out since (changed or deleted): their packed postings are skipped. */
  private readonly takenOut = new Set<number>();
  /** Per packed term, how many of its packed postings are of memories taken out. */
  private takenOutCounts: Uint32Array | null = null;
  /** Per term id, a number that moves when its list changes: bitsets follow it. */
  private readonly versions = new Map<number, number>();
  /** Each memory's length, by rowid: bm25 reads one for every posting it ranks. */
  private lengths = new Uint32Array(0);
  /** Lengths of rowids set by hand far beyond the others. */
  private readonly farLengths = new Map<number, number>();
  private docs = 0;
  private tokens = 0;
  /** Index terms of runs seen (`Connections` → [`connect`]): each distinct run goes through FTS5's tokenizer once. */
  private runs = new Map<string, readonly string[]>();
  private runsKept = RUNS_KEPT_BUILDING;
  private bitsetsNow = new Bitsets(BITSET_BYTES);
  /** The memories' generation this index reflects (MemoryStore.generation); -1 while built. */
  generation = -1;

  /** An empty index to build, or one over an image's arrays (built in another process), used as they are. */
  constructor(
    private readonly stemRuns: StemRuns,
    image?: TextIndexImage,
  ) {
    this.adopt(image ?? emptyImage());
    if (image) this.runsKept = RUNS_KEPT;
  }

  /** Bitsets of the common words queries use, current with the postings. */
  get bitsets(): Bitsets {
    return this.bitsetsNow;
  }

  /** Memories indexed: bm25's N. */
  get rows(): number {
    return this.docs;
  }

  /** bm25's average document length (tokens in all columns). */
  get averageLength(): number {
    return this.docs ? this.tokens / this.docs : 0;
  }

  /** Memories put or taken out since the index was packed. */
  get changedSincePacked(): number {
    return this.addedDocs.size + this.takenOut.size;
  }

  /** Postings of an index term; undefined when no memory has it. */
  postings(term: string): TermPostings | undefined {
    const id = this.dictionary.find(term);
    if (id === undefined) return undefined;
    const count = this.countOf(id);
    return count ? new TermPostings(this, id, count, this.versions.get(id) ?? 0) : undefined;
  }

  /** Tokens of a memory (0 when not indexed). */
  length(rowid: number): number {
    return rowid < this.lengths.length ? this.lengths[rowid]! : (this.farLengths.get(rowid) ?? 0);
  }

  /** A term's postings, merged from the packed list and the memories put since (PostingSource). */
  decode(id: number, count: number): { rowids: Int32Array; freqs: Uint16Array } {
    const rowids = new Int32Array(count);
    const freqs = new Uint16Array(count);
    const { postingBytes, postingStarts, postingCounts } = this.packed;
    let n = id < postingCounts.length ? decodePostings(postingBytes, postingStarts[id]!, postingStarts[id + 1]!, rowids, freqs, 0, this.takenOut.size ? this.takenOut : null) : 0;
    const own = this.added.get(id);
    if (!own?.count) return { rowids, freqs };
    // Merged from the end: the arrays have room for both lists.
    for (let j = own.count - 1, k = n + own.count - 1; j >= 0; k--) {
      if (n > 0 && rowids[n - 1]! > own.rowids[j]!) {
        n--;
        rowids[k] = rowids[n]!;
        freqs[k] = freqs[n]!;
      } else {
        rowids[k] = own.rowids[j]!;
        freqs[k] = own.freqs[j]!;
        j--;
      }
    }
    return { rowids, freqs };
  }

  /** Adds memories or replaces what was indexed of them. */
  put(rows: readonly IndexedRow[]): void {
    this.stemNewRuns(rows);
    for (const row of rows) {
      this.remove(row.rowid);
      const freqs = new Map<number, number>();
      let length = 0;
      const columns = [row.title, row.body, row.why ?? '', row.tags];
      for (let c = 0; c < columns.length; c++) {
        const weight = BM25_COLUMN_WEIGHTS[c]!;
        for (const run of columns[c]!.match(RUN) ?? []) {
          for (const term of this.runs.get(runKey(run))!) {
            const id = this.dictionary.idOf(term);
            freqs.set(id, (freqs.get(id) ?? 0) + weight);
            length++;
          }
        }
      }
      const terms = new Int32Array(freqs.size);
      let i = 0;
      for (const [id, freq] of freqs) {
        terms[i++] = id;
        let list = this.added.get(id);
        if (!list) this.added.set(id, (list = new Postings()));
        list.add(row.rowid, Math.min(freq, FREQ_MAX));
        this.changed(id);
      }
      this.addedDocs.set(row.rowid, terms);
      this.setLength(row.rowid, length);
      this.tokens += length;
      this.docs++;
    }
    if (this.runs.size > this.runsKept) this.runs = new Map();
  }

  /** Takes a memory out (deleted, or about to be indexed again). */
  remove(rowid: number): void {
    const own = this.addedDocs.get(rowid);
    if (own) {
      for (const id of own) {
        this.added.get(id)!.remove(rowid);
        this.changed(id);
      }
      this.addedDocs.delete(rowid);
    } else {
      const at = this.takenOut.has(rowid) ? -1 : this.packedPosition(rowid);
      if (at < 0) return;
      const { docBytes, docStarts, postingCounts } = this.packed;
      const ids = new Int32Array(docStarts[at + 1]! - docStarts[at]!);
      const n = decodeGaps(docBytes, docStarts[at]!, docStarts[at + 1]!, ids, 0);
      this.takenOutCounts ??= new Uint32Array(postingCounts.length);
      for (let i = 0; i < n; i++) {
        this.takenOutCounts[ids[i]!]!++;
        this.changed(ids[i]!);
      }
      this.takenOut.add(rowid);
    }
    this.tokens -= this.length(rowid);
    this.setLength(rowid, 0);
    this.docs--;
  }

  /** Packs the memories changed since the index was packed in with the rest (after a build: all of them). */
  compact(): void {
    if (this.changedSincePacked) this.adopt(this.image());
    this.runs = new Map();
    this.runsKept = RUNS_KEPT;
  }

  /** The index terms of query words (TermStats.stems without a statement for words the memories contain). */
  termsOf(words: readonly string[]): (readonly string[])[] {
    const keys = words.map(runKey);
    const unseen = [...new Set(keys.filter((key) => !this.runs.has(key)))];
    const found = keys.map((key) => this.runs.get(key));
    if (unseen.length) {
      const terms = this.stemRuns(unseen);
      if (this.runs.size + unseen.length > this.runsKept) this.runs = new Map();
      unseen.forEach((key, i) => this.runs.set(key, terms[i]!));
      keys.forEach((key, i) => (found[i] ??= this.runs.get(key)));
    }
    return found as (readonly string[])[];
  }

  /** The index packed (TextIndexImage): its own arrays when nothing changed since it was packed. */
  image(): TextIndexImage {
    if (!this.changedSincePacked) return { ...this.packed, generation: this.generation };
    const dictionary = this.dictionary.terms();
    const live: number[] = [];
    for (let id = 0; id < dictionary.length; id++) if (this.countOf(id)) live.push(id);
    const { packed: terms, order } = packTerms(live.map((id) => dictionary[id]!));
    const newIds = new Int32Array(dictionary.length).fill(-1);
    order.forEach((at, newId) => (newIds[live[at]!] = newId));

    const postings = new ByteWriter(1 << 16);
    const postingStarts = new Uint32Array(order.length + 1);
    const postingCounts = new Uint32Array(order.length);
    order.forEach((at, newId) => {
      const id = live[at]!;
      const count = this.countOf(id);
      const { rowids, freqs } = this.decode(id, count);
      let previous = 0;
      for (let i = 0; i < count; i++) {
        postings.varint(rowids[i]! - previous);
        postings.varint(freqs[i]!);
        previous = rowids[i]!;
      }
      postingCounts[newId] = count;
      postingStarts[newId + 1] = postings.length;
    });

    const { docRowids: packedRowids, docBytes: packedDocBytes, docStarts: packedDocStarts } = this.packed;
    const rowids: number[] = [];
    for (const rowid of packedRowids) if (!this.takenOut.has(rowid)) rowids.push(rowid);
    // A loop, not a spread: more than ~125,000 arguments overflow the stack, and a first build adds every memory.
    for (const rowid of this.addedDocs.keys()) rowids.push(rowid);
    const docRowids = Int32Array.from(rowids).sort();
    const docLengths = new Uint32Array(docRowids.length);
    const docStarts = new Uint32Array(docRowids.length + 1);
    const docs = new ByteWriter(1 << 16);
    let scratch = new Int32Array(64);
    docRowids.forEach((rowid, d) => {
      let ids = this.addedDocs.get(rowid);
      if (!ids) {
        const at = this.packedPosition(rowid);
        const bytes = packedDocStarts[at + 1]! - packedDocStarts[at]!;
        if (scratch.length < bytes) scratch = new Int32Array(bytes);
        ids = scratch.subarray(0, decodeGaps(packedDocBytes, packedDocStarts[at]!, packedDocStarts[at + 1]!, scratch, 0));
      }
      const mapped = Int32Array.from(ids, (id) => newIds[id]!).sort();
      let previous = 0;
      for (const id of mapped) {
        docs.varint(id - previous);
        previous = id;
      }
      docLengths[d] = this.length(rowid);
      docStarts[d + 1] = docs.length;
    });
    return { generation: this.generation, terms, postingBytes: postings.bytes(), postingStarts, postingCounts, docRowids, docLengths, docBytes: docs.bytes(), docStarts };
  }

  /** Postings and documents held, for the server's log and the bench. */
  size(): { readonly rows: number; readonly terms: number; readonly postings: number; readonly bytes: number } {
    let terms = 0;
    let postings = 0;
    for (let id = 0; id < this.dictionary.size; id++) {
      const count = this.countOf(id);
      if (count) terms++;
      postings += count;
    }
    const { terms: packedTerms, postingBytes, postingStarts, postingCounts, docRowids, docLengths, docBytes, docStarts } = this.packed;
    const bytes = [packedTerms.bytes, packedTerms.starts, postingBytes, postingStarts, postingCounts, docRowids, docLengths, docBytes, docStarts, this.lengths].reduce((sum, a) => sum + a.byteLength, 0);
    return { rows: this.docs, terms, postings, bytes };
  }

  /** Makes an image the index, every change since its packing dropped. */
  private adopt(image: TextIndexImage): void {
    this.packed = image;
    this.dictionary = new TermDictionary(image.terms);
    this.added.clear();
    this.addedDocs.clear();
    this.takenOut.clear();
    this.takenOutCounts = null;
    this.versions.clear();
    this.farLengths.clear();
    // Term ids are new: what was derived from the old ones goes.
    this.bitsetsNow = new Bitsets(BITSET_BYTES);
    const { docRowids, docLengths } = image;
    const highest = docRowids.length ? docRowids[docRowids.length - 1]! : 0;
    this.lengths = new Uint32Array(Math.min(highest, MAX_ROWID_IN_ARRAY - 1) + 1);
    this.docs = docRowids.length;
    this.tokens = 0;
    for (let d = 0; d < docRowids.length; d++) {
      this.setLength(docRowids[d]!, docLengths[d]!);
      this.tokens += docLengths[d]!;
    }
    this.generation = image.generation;
  }

  private countOf(id: number): number {
    const counts = this.packed.postingCounts;
    const packed = id < counts.length ? counts[id]! - (this.takenOutCounts?.[id] ?? 0) : 0;
    return packed + (this.added.get(id)?.count ?? 0);
  }

  /** A term's list changed. Nothing derived from lists is kept while no bitset is: no need to count then. */
  private changed(id: number): void {
    if (this.bitsetsNow.size) this.versions.set(id, (this.versions.get(id) ?? 0) + 1);
  }

  /** Position of a packed memory, or -1. */
  private packedPosition(rowid: number): number {
    const rowids = this.packed.docRowids;
    let low = 0;
    let high = rowids.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (rowids[mid]! < rowid) low = mid + 1;
      else high = mid;
    }
    return low < rowids.length && rowids[low] === rowid ? low : -1;
  }

  private setLength(rowid: number, length: number): void {
    // Rowids count up from 1; one set by hand far beyond that is left to the map.
    if (rowid >= MAX_ROWID_IN_ARRAY) {
      if (length) this.farLengths.set(rowid, length);
      else this.farLengths.delete(rowid);
      return;
    }
    if (rowid >= this.lengths.length) {
      const grown = new Uint32Array(Math.min(MAX_ROWID_IN_ARRAY, Math.max(rowid + 1, this.lengths.length * 2, 1024)));
      grown.set(this.lengths);
      this.lengths = grown;
    }
    this.lengths[rowid] = length;
  }

  private stemNewRuns(rows: readonly IndexedRow[]): void {
    const unseen = new Set<string>();
    for (const row of rows) {
      for (const column of [row.title, row.body, row.why ?? '', row.tags]) {
        for (const run of column.match(RUN) ?? []) {
          const key = runKey(run);
          if (!this.runs.has(key)) unseen.add(key);
        }
      }
    }
    if (!unseen.size) return;
    const keys = [...unseen];
    const terms = this.stemRuns(keys);
    keys.forEach((key, i) => this.runs.set(key, terms[i]!));
  }
}

/** ASCII runs are lowercased here (FTS5 folds them the same); others go to FTS5 as they are. */
function runKey(run: string): string {
  return ASCII_RUN.test(run) ? run.toLowerCase() : run;
}
