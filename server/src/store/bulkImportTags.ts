import type { Memory } from '../memory/types';
import { identifierParts } from '../memory/identifierParts';

/** Pieces remembered before the cache starts over: a few MB at most. */
const MAX_CACHED = 50_000;

/**
 * The `tags` column of a memory's full-text row, exactly as MemoryStore.write makes it, for
 * thousands of memories at a time. identifierParts of the whole text costs ~25 µs a memory, but
 * its tokens never hold a space, so its parts are those of each space-separated piece in turn
 * (first occurrence kept): and paths, symbols and title words repeat from memory to memory.
 */
export class FtsTags {
  private readonly partsOfPiece = new Map<string, readonly string[]>();

  of(memory: Memory): string {
    const parts = new Set<string>();
    for (const text of [memory.title, ...memory.files, ...memory.symbols]) {
      for (const piece of text.split(' ')) for (const part of this.parts(piece)) parts.add(part);
    }
    return [...memory.files, ...memory.symbols, ...parts].join(' ');
  }

  private parts(piece: string): readonly string[] {
    let parts = this.partsOfPiece.get(piece);
    if (parts === undefined) {
      if (this.partsOfPiece.size >= MAX_CACHED) this.partsOfPiece.clear();
      parts = identifierParts(piece);
      this.partsOfPiece.set(piece, parts);
    }
    return parts;
  }
}
