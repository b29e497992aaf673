import { Bitsets } from './bitsets';
import { Postings } from './postings';

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

interface IndexedDoc {
  /** Ids of the index terms the memory contains, each once. */
  readonly terms: Int32Array;
  /** Tokens in all columns: bm25's document length. */
  readonly length: number;
}

/**
 * A built index as flat arrays, to move it between processes in a few large copies: every
 * term's postings one after another, every memory's term ids likewise. The runs seen are not part of it (the receiving side stems again what it meets).
 */
export interface TextIndexImage {
  readonly generation: number;
  /** Index terms by id. */
  readonly terms: readonly string[];
  /** Where each term's postings start in `rowids` and `freqs`; one more entry than terms. */
  readonly postingStarts: Int32Array;
  readonly rowids: Int32Array;
  readonly freqs: Uint16Array;
  readonly docRowids: Int32Array;
  readonly docLengths: Uint32Array;
  /** Where each memory's term ids start in `docTerms`; one more entry than memories. */
  readonly docStarts: Int32Array;
  readonly docTerms: Int32Array;
}

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
/** Runs whose index terms are kept after a build (the corpus's words; a query's words are looked up here too). */
const RUNS_KEPT = 200_000;

/**
 * An inverted index of memory_fts in memory, term for term what FTS5 holds (its own tokenizer
 * stems every word, store/textIndex/stemmer.ts): postings with bm25's weighted frequencies and
 * each memory's length, so the memory server ranks and checks words without SQLite
 * (recall/indexTextSearch.ts). Kept current from the change log by the store; ~10 bytes a
 * posting.
 */
export class TextIndex {
  private readonly termIds = new Map<string, number>();
  private readonly postingsOfTerm: Postings[] = [];
  private readonly docs = new Map<number, IndexedDoc>();
  /** Each memory's length again, by rowid: bm25 reads one for every posting it ranks. */
  private lengths = new Uint32Array(1024);
  private tokens = 0;
  /** Index terms of runs seen (`Connections` → [`connect`]): each distinct run goes through FTS5's tokenizer once. */
  private runs = new Map<string, readonly string[]>();
  /** Bitsets of the common words queries use, current with the postings. */
  readonly bitsets = new Bitsets(BITSET_BYTES);
  /** The memories' generation this index reflects (MemoryStore.generation); -1 while built. */
  generation = -1;

  constructor(private readonly stemRuns: StemRuns) {}

  /** Memories indexed: bm25's N. */
  get rows(): number {
    return this.docs.size;
  }

  /** bm25's average document length (tokens in all columns). */
  get averageLength(): number {
    return this.docs.size ? this.tokens / this.docs.size : 0;
  }

  /** Postings of an index term; undefined when no memory has it. */
  postings(term: string): Postings | undefined {
    const id = this.termIds.get(term);
    const postings = id === undefined ? undefined : this.postingsOfTerm[id];
    return postings && postings.count ? postings : undefined;
  }

  /** Tokens of a memory (0 when not indexed). */
  length(rowid: number): number {
    return rowid < this.lengths.length ? this.lengths[rowid]! : (this.docs.get(rowid)?.length ?? 0);
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
            const id = this.termId(term);
            freqs.set(id, (freqs.get(id) ?? 0) + weight);
            length++;
          }
        }
      }
      const terms = new Int32Array(freqs.size);
      let i = 0;
      for (const [id, freq] of freqs) {
        terms[i++] = id;
        this.postingsOfTerm[id]!.add(row.rowid, freq);
      }
      this.docs.set(row.rowid, { terms, length });
      this.setLength(row.rowid, length);
      this.tokens += length;
    }
    if (this.runs.size > RUNS_KEPT) this.runs = new Map();
  }

  /** Takes a memory out (deleted, or about to be indexed again). */
  remove(rowid: number): void {
    const doc = this.docs.get(rowid);
    if (!doc) return;
    for (const id of doc.terms) this.postingsOfTerm[id]!.remove(rowid);
    this.tokens -= doc.length;
    this.docs.delete(rowid);
    this.setLength(rowid, 0);
  }

  /** After a build: spare capacity is dropped. */
  compact(): void {
    for (const postings of this.postingsOfTerm) postings.trim();
  }

  /** The index terms of query words (TermStats.stems without a statement for words the memories contain). */
  termsOf(words: readonly string[]): (readonly string[])[] {
    const unseen = [...new Set(words.map(runKey).filter((key) => !this.runs.has(key)))];
    if (unseen.length) {
      const terms = this.stemRuns(unseen);
      unseen.forEach((key, i) => this.runs.set(key, terms[i]!));
    }
    return words.map((word) => this.runs.get(runKey(word))!);
  }

  /** The index as flat arrays (TextIndexImage). */
  image(): TextIndexImage {
    const terms = [...this.termIds.keys()];
    const postingStarts = new Int32Array(this.postingsOfTerm.length + 1);
    for (let id = 0; id < this.postingsOfTerm.length; id++) postingStarts[id + 1] = postingStarts[id]! + this.postingsOfTerm[id]!.count;
    const total = postingStarts[this.postingsOfTerm.length]!;
    const rowids = new Int32Array(total);
    const freqs = new Uint16Array(total);
    this.postingsOfTerm.forEach((p, id) => {
      rowids.set(p.rowids.subarray(0, p.count), postingStarts[id]);
      freqs.set(p.freqs.subarray(0, p.count), postingStarts[id]);
    });
    const docRowids = new Int32Array(this.docs.size);
    const docLengths = new Uint32Array(this.docs.size);
    const docStarts = new Int32Array(this.docs.size + 1);
    let at = 0;
    for (const [rowid, doc] of this.docs) {
      docRowids[at] = rowid;
      docLengths[at] = doc.length;
      docStarts[at + 1] = docStarts[at]! + doc.terms.length;
      at++;
    }
    const docTerms = new Int32Array(docStarts[this.docs.size]!);
    at = 0;
    for (const doc of this.docs.values()) docTerms.set(doc.terms, docStarts[at++]);
    return { generation: this.generation, terms, postingStarts, rowids, freqs, docRowids, docLengths, docStarts, docTerms };
  }

  /** An index over an image's arrays (built in another process), without copying them. */
  static fromImage(image: TextIndexImage, stemRuns: StemRuns): TextIndex {
    const index = new TextIndex(stemRuns);
    image.terms.forEach((term, id) => {
      index.termIds.set(term, id);
      const from = image.postingStarts[id]!;
      const to = image.postingStarts[id + 1]!;
      index.postingsOfTerm.push(Postings.over(image.rowids.subarray(from, to), image.freqs.subarray(from, to)));
    });
    for (let d = 0; d < image.docRowids.length; d++) {
      const rowid = image.docRowids[d]!;
      const length = image.docLengths[d]!;
      index.docs.set(rowid, { terms: image.docTerms.subarray(image.docStarts[d], image.docStarts[d + 1]), length });
      index.setLength(rowid, length);
      index.tokens += length;
    }
    index.generation = image.generation;
    return index;
  }

  /** Postings and documents held, for the server's log and the bench. */
  size(): { readonly rows: number; readonly terms: number; readonly postings: number } {
    let postings = 0;
    for (const p of this.postingsOfTerm) postings += p.count;
    return { rows: this.docs.size, terms: this.termIds.size, postings };
  }

  private setLength(rowid: number, length: number): void {
    // Rowids count up from 1; one set by hand far beyond that is left to the map.
    if (rowid >= MAX_ROWID_IN_ARRAY) return;
    if (rowid >= this.lengths.length) {
      const grown = new Uint32Array(Math.max(rowid + 1, this.lengths.length * 2));
      grown.set(this.lengths);
      this.lengths = grown;
    }
    this.lengths[rowid] = length;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.postingsOfTerm.length;
      this.termIds.set(term, id);
      this.postingsOfTerm.push(new Postings());
    }
    return id;
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
