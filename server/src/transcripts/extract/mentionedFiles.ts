import { existsSync } from 'node:fs';
import path from 'node:path';
import { toProjectPath } from '../../paths/engramPaths';

const MAX_FILES = 10;
/** Path-like words: `src/db.ts`, `./lib/a.py`, `README.md`, `/abs/path/x.go`. */
const PATH_LIKE = /(?:^|[\s`'"(\[])((?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.[A-Za-z0-9]{1,10}|(?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)+\/?)(?=$|[\s`'"),:;\]!?]|\.(?:\s|$))/g;

/**
 * Project files a message names, project-relative, only those that exist — so a memory is tied
 * to real code and a word like "e.g." is never taken for a file.
 */
export function mentionedFiles(text: string, root: string, exists: (absolute: string) => boolean = existsSync): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(PATH_LIKE)) {
    const word = match[1]!.replace(/\/$/, '');
    const absolute = path.resolve(root, word);
    const relative = toProjectPath(root, absolute);
    if (relative === null || relative === '' || found.has(relative)) continue;
    if (!exists(absolute)) continue;
    found.add(relative);
    if (found.size >= MAX_FILES) break;
  }
  return [...found];
}
