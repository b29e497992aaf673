import path from 'node:path';

/** A path's number and its folder's number (PathIds). */
export interface PathId {
  readonly file: number;
  readonly folder: number;
}

/** What `find` answers for a path no memory is tagged with: a number no path has. */
export const UNSEEN_PATH: PathId = Object.freeze({ file: -2, folder: -2 });

/** A row's soleFile and soleFolder when it is tagged with no file or several. */
export const NOT_ONE = -1;

/** The folder of a project path ('' = the project's root). */
export function folderOf(file: string): string {
  const dir = path.posix.dirname(file);
  return dir === '.' ? '' : dir;
}

/**
 * Numbers for the paths memories are tagged with, and for their folders: recall places hundreds
 * of candidates against the file in focus, and comparing numbers kept in the candidate's row
 * needs neither its tag list nor its strings (each a cache miss at 100,000 memories).
 */
export class PathIds {
  private readonly ids = new Map<string, PathId>();
  private readonly folders = new Map<string, number>();

  /** The numbers of a path, given out when first seen. */
  of(file: string): PathId {
    let id = this.ids.get(file);
    if (!id) {
      const folder = folderOf(file);
      let folderId = this.folders.get(folder);
      if (folderId === undefined) this.folders.set(folder, (folderId = this.folders.size));
      id = { file: this.ids.size, folder: folderId };
      this.ids.set(file, id);
    }
    return id;
  }

  /** A row's one tagged file and its folder by number; NOT_ONE for both when it has none or several. */
  sole(files: readonly string[]): { readonly soleFile: number; readonly soleFolder: number } {
    if (files.length !== 1) return { soleFile: NOT_ONE, soleFolder: NOT_ONE };
    const id = this.of(files[0]!);
    return { soleFile: id.file, soleFolder: id.folder };
  }

  /** The numbers of a path if some row had it, else of its folder if that was seen. */
  find(file: string): PathId {
    const id = this.ids.get(file);
    if (id) return id;
    const folder = this.folders.get(folderOf(file));
    return folder === undefined ? UNSEEN_PATH : { file: UNSEEN_PATH.file, folder };
  }
}
