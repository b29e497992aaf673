import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { CaptureFilter } from './captureFilter';

/** More files than this are not walked at start; the rest is captured as it is opened or changed. */
export const MAX_WALKED_FILES = 20_000;

/**
 * Every capturable file of a project (absolute paths), pruning excluded folders (node_modules,
 * .git, gitignored build output) without descending into them. Truncated past `limit` files, or
 * when `deadline` (a Date.now() time) comes between two folders.
 */
export async function walkProject(root: string, filter: CaptureFilter, limit: number = MAX_WALKED_FILES, deadline: number = Infinity): Promise<{ files: string[]; truncated: boolean }> {
  const files: string[] = [];
  const folders = [root];
  while (folders.length) {
    if (Date.now() >= deadline) return { files, truncated: true };
    const folder = folders.pop()!;
    // A file inside an excluded folder is excluded: testing one stands for the whole folder.
    if (folder !== root && filter.exclusion(path.join(folder, '.engram-walk-probe'))) continue;
    let entries;
    try {
      entries = await fsp.opendir(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR') continue;
      throw error;
    }
    for await (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) folders.push(full);
      else if (entry.isFile() && !filter.exclusion(full)) {
        files.push(full);
        if (files.length >= limit) return { files, truncated: true };
      }
    }
  }
  return { files, truncated: false };
}
