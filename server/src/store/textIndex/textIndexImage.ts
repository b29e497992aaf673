import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import type { PackedTerms } from './termDictionary';

/**
 * A text index as a few flat arrays (~3.5 bytes a posting at 100,000 memories): what the build
 * process hands the memory server, and what the server's index is made of (textIndex.ts).
 */
export interface TextIndexImage {
  /** The memories' generation it reflects (MemoryStore.generation). */
  readonly generation: number;
  /** Index terms sorted by their UTF-8; a term's id is its position. */
  readonly terms: PackedTerms;
  /**
   * Each term's postings one after another, in ascending rowid: the gap from the previous rowid
   * (the first from 0) and the weighted frequency, each a varint (varints.ts).
   */
  readonly postingBytes: Uint8Array;
  /** Where each term's postings start in `postingBytes`; one more entry than terms. */
  readonly postingStarts: Uint32Array;
  readonly postingCounts: Uint32Array;
  /** The memories indexed, ascending, with their lengths in tokens (bm25's document length). */
  readonly docRowids: Int32Array;
  readonly docLengths: Uint32Array;
  /** Each memory's term ids, ascending, as gaps: what to take out when it changes. */
  readonly docBytes: Uint8Array;
  /** Where each memory's term ids start in `docBytes`; one more entry than memories. */
  readonly docStarts: Uint32Array;
}

type ArrayName = 'termBytes' | 'termStarts' | 'postingBytes' | 'postingStarts' | 'postingCounts' | 'docRowids' | 'docLengths' | 'docBytes' | 'docStarts';
type AnyArray = Uint8Array | Uint32Array | Int32Array;

const MAGIC = 'engram-text-index-1';
const ARRAYS: readonly { readonly name: ArrayName; readonly make: (length: number) => AnyArray }[] = [
  { name: 'termBytes', make: (n) => new Uint8Array(n) },
  { name: 'termStarts', make: (n) => new Uint32Array(n) },
  { name: 'postingBytes', make: (n) => new Uint8Array(n) },
  { name: 'postingStarts', make: (n) => new Uint32Array(n) },
  { name: 'postingCounts', make: (n) => new Uint32Array(n) },
  { name: 'docRowids', make: (n) => new Int32Array(n) },
  { name: 'docLengths', make: (n) => new Uint32Array(n) },
  { name: 'docBytes', make: (n) => new Uint8Array(n) },
  { name: 'docStarts', make: (n) => new Uint32Array(n) },
];

function arraysOf(image: TextIndexImage): Record<ArrayName, AnyArray> {
  const { postingBytes, postingStarts, postingCounts, docRowids, docLengths, docBytes, docStarts } = image;
  return { termBytes: image.terms.bytes, termStarts: image.terms.starts, postingBytes, postingStarts, postingCounts, docRowids, docLengths, docBytes, docStarts };
}

/**
 * Writes an image to `file`: a header (its length, then JSON) and each array's bytes. The build
 * process hands its index over so: sent as a message, the server held the message's buffers
 * (~60 MB at 100,000 memories) as well as the arrays until its next full collection.
 */
export function writeImageFile(file: string, image: TextIndexImage): void {
  const arrays = arraysOf(image);
  const header = Buffer.from(JSON.stringify({ magic: MAGIC, generation: image.generation, lengths: ARRAYS.map(({ name }) => arrays[name].length) }));
  const fd = openSync(file, 'w');
  try {
    const size = Buffer.alloc(4);
    size.writeUInt32LE(header.length);
    writeSync(fd, size);
    writeSync(fd, header);
    for (const { name } of ARRAYS) {
      const array = arrays[name];
      writeSync(fd, new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    }
  } finally {
    closeSync(fd);
  }
}

/** Reads an image written by writeImageFile, each array read straight into its own memory. */
export function readImageFile(file: string): TextIndexImage {
  const fd = openSync(file, 'r');
  try {
    let position = 0;
    const readInto = (target: Uint8Array) => {
      for (let done = 0; done < target.length; ) {
        const read = readSync(fd, target, done, target.length - done, position);
        if (read === 0) throw new Error(`${file} ends early`);
        done += read;
        position += read;
      }
    };
    const size = Buffer.alloc(4);
    readInto(size);
    const headerBytes = Buffer.alloc(size.readUInt32LE());
    readInto(headerBytes);
    const header = JSON.parse(headerBytes.toString('utf8')) as { magic: string; generation: number; lengths: number[] };
    if (header.magic !== MAGIC || header.lengths.length !== ARRAYS.length) throw new Error(`${file} is not a text index image`);
    const arrays = {} as Record<ArrayName, AnyArray>;
    ARRAYS.forEach(({ name, make }, i) => {
      const array = make(header.lengths[i]!);
      readInto(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
      arrays[name] = array;
    });
    return {
      generation: header.generation,
      terms: { bytes: arrays.termBytes as Uint8Array, starts: arrays.termStarts as Uint32Array },
      postingBytes: arrays.postingBytes as Uint8Array,
      postingStarts: arrays.postingStarts as Uint32Array,
      postingCounts: arrays.postingCounts as Uint32Array,
      docRowids: arrays.docRowids as Int32Array,
      docLengths: arrays.docLengths as Uint32Array,
      docBytes: arrays.docBytes as Uint8Array,
      docStarts: arrays.docStarts as Uint32Array,
    };
  } finally {
    closeSync(fd);
  }
}
