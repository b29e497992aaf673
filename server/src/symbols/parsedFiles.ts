import type { Tree } from 'web-tree-sitter';
import type { LanguageId } from './languages';

/** The last tree parsed for a file, with the text it was parsed from. */
export interface ParsedFile {
  readonly text: string;
  readonly language: LanguageId;
  readonly tree: Tree;
}

/**
 * The last tree of each recently changed file, so the next version of it parses incrementally.
 * Bounded, least recently used first out: trees live in wasm memory, which the garbage
 * collector does not reclaim, so every tree that leaves is deleted.
 */
export class ParsedFiles {
  private readonly files = new Map<string, ParsedFile>();

  constructor(readonly capacity = 32) {}

  get size(): number {
    return this.files.size;
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  /** Takes a file's entry out, so the caller owns (and must delete or put back) its tree. */
  take(path: string): ParsedFile | undefined {
    const file = this.files.get(path);
    this.files.delete(path);
    return file;
  }

  put(path: string, file: ParsedFile): void {
    this.forget(path);
    this.files.set(path, file);
    for (const [oldest, entry] of this.files) {
      if (this.files.size <= this.capacity) break;
      entry.tree.delete();
      this.files.delete(oldest);
    }
  }

  forget(path: string): void {
    this.files.get(path)?.tree.delete();
    this.files.delete(path);
  }
}
