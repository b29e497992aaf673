import { GenerationMap } from '../store/generationMap';
import type { MemoryStore } from '../store/memoryStore';

/**
 * The memories whose change wrote a line: for a cursor, the edits and commits that put the line
 * there, found by its text among the lines the file's diff memories added (a blame of the
 * history Engram holds; line numbers move, the text stays).
 */

/** A file's diff memories read for their added lines, newest first: a file's recent history, not all of it. */
const SCANNED_PER_FILE = 300;
/** Files whose added lines are kept while no memory changes (a hover asks again and again at the same place). */
const FILES_KEPT = 16;
const kept = new WeakMap<MemoryStore, GenerationMap<string, ReadonlyMap<string, readonly number[]>>>();

/** A line worth finding by its text: one with a word (a lone brace is in every file's history). */
export function isDistinctiveLine(text: string): boolean {
  return /[\p{L}_][\p{L}\p{N}_]{2,}/u.test(text);
}

/** The lines a unified patch adds, trimmed (a patch body: header lines, then hunks). */
export function addedLines(patch: string): string[] {
  const added: string[] = [];
  let inHunk = false;
  for (const line of patch.split('\n')) {
    if (line.startsWith('@@')) inHunk = true;
    else if (inHunk && line.startsWith('+')) added.push(line.slice(1).trim());
  }
  return added;
}

/** Every distinctive line the file's diff memories added → their rowids, newest first. */
function addedLinesOfFile(store: MemoryStore, file: string): ReadonlyMap<string, readonly number[]> {
  const rowids = store.reads.rowidsForFile(file, SCANNED_PER_FILE);
  // Only the bodies: whole memories (tags, anchor, meta) took most of the time of a file not kept.
  const bodies = store.reads.diffBodies(rowids);
  const writers = new Map<string, number[]>();
  for (const rowid of rowids) {
    const body = bodies.get(rowid);
    if (!body) continue;
    for (const line of new Set(addedLines(body))) {
      if (!isDistinctiveLine(line)) continue;
      const list = writers.get(line);
      if (list) list.push(rowid);
      else writers.set(line, [rowid]);
    }
  }
  return writers;
}

/** Rowids of the file's diff memories that added `lineText` (whitespace at either end aside), newest first. */
export function lineWriters(store: MemoryStore, file: string, lineText: string): readonly number[] {
  const text = lineText.trim();
  if (!isDistinctiveLine(text)) return [];
  let files = kept.get(store);
  if (!files) {
    files = new GenerationMap(FILES_KEPT);
    kept.set(store, files);
  }
  files.sync(store.generation());
  return files.getOrCompute(file, () => addedLinesOfFile(store, file)).get(text) ?? [];
}
