import type { Anchor } from '../memory/types';
import { anchorLines, hashContent, onlyWhitespace } from './anchorFromText';
import { withLfEndings } from '../util/lineEndings';

/** How far a block may have grown (in lines) for its surrounding lines to still identify it. */
const MAX_GROWTH = 3;

function splitLines(text: string): string[] {
  return withLfEndings(text).split('\n');
}

/** Start index of every place `block` (lines joined by \n) occurs in `lines`. */
function occurrences(lines: readonly string[], block: string): number[] {
  if (block === '') return [];
  const wanted = block.split('\n');
  const found: number[] = [];
  for (let i = 0; i + wanted.length <= lines.length; i++) {
    let ok = true;
    for (let j = 0; j < wanted.length && ok; j++) ok = lines[i + j] === wanted[j];
    if (ok) found.push(i);
  }
  return found;
}

function nearest(candidates: readonly number[], to: number): number | undefined {
  return [...candidates].sort((a, b) => Math.abs(a - to) - Math.abs(b - to) || a - b)[0];
}

/**
 * Finds anchored code again in a new version of its file (changed on disk, or opened after a
 * change Engram did not see):
 * 1. still in place (same content hash);
 * 2. moved: the same lines elsewhere — the copy nearest the old place, preferring one whose
 *    surrounding lines also match;
 * 3. edited in place: the lines around it are still there with code between them (up to a few
 *    times its old length; whitespace alone is not code) — it follows, with a new hash;
 * otherwise the code is gone and the anchor is **stale** (kept where it was, never moved to
 * unrelated code). `text` null: the file was deleted.
 */
export function relocateAnchor(anchor: Anchor, text: string | null): Anchor {
  if (text === null) return { ...anchor, stale: true };
  const lines = splitLines(text);
  const { startLine, endLine } = anchor.range;
  const length = endLine - startLine + 1;
  const hashAt = (start: number) => (start >= 0 && start + length <= lines.length ? hashContent(lines.slice(start, start + length).join('\n')) : null);

  if (hashAt(startLine) === anchor.contentHash) return { ...anchorLines(anchor.path, text, startLine, endLine), stale: false };

  const moved: number[] = [];
  for (let i = 0; i + length <= lines.length; i++) if (hashAt(i) === anchor.contentHash) moved.push(i);
  if (moved.length) {
    const withContext = moved.filter((i) => lines.slice(Math.max(0, i - 2), i).join('\n') === anchor.contextBefore || lines.slice(i + length, i + length + 2).join('\n') === anchor.contextAfter);
    const start = nearest(withContext.length ? withContext : moved, startLine)!;
    return { ...anchorLines(anchor.path, text, start, start + length - 1), stale: false };
  }

  // Edited in place: the lines before and after still frame it.
  const beforeEnds = anchor.contextBefore === '' ? [0] : occurrences(lines, anchor.contextBefore).map((i) => i + anchor.contextBefore.split('\n').length);
  const afterStarts = anchor.contextAfter === '' ? [lines.length] : occurrences(lines, anchor.contextAfter);
  let best: { start: number; end: number } | null = null;
  for (const start of beforeEnds) {
    const end = afterStarts.filter((a) => a > start && a - start <= length * MAX_GROWTH + 2).sort((a, b) => a - b)[0];
    if (end === undefined) continue;
    if (!best || Math.abs(start - startLine) < Math.abs(best.start - startLine)) best = { start, end: end - 1 };
  }
  // Only whitespace left between them: the code was deleted all but its indentation.
  if (best && best.end >= best.start && !onlyWhitespace(text, best.start, best.end)) return { ...anchorLines(anchor.path, text, best.start, best.end), stale: false };
  return { ...anchor, stale: true };
}
