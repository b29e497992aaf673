import { structuredPatch } from 'diff';
import type { LineRange } from '../symbols';
import { withLfEndings } from '../util/lineEndings';

export type { LineRange } from '../symbols';

/** One hunk in jsdiff's shape: 1-based starts; lines prefixed ' ', '-', '+' or '\' (no newline at end of file). */
export interface DiffHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

export interface TextDiff {
  readonly hunks: readonly DiffHunk[];
  /** Over the whole change, even when the patch is capped. */
  readonly added: number;
  readonly removed: number;
  /** Unified diff text, capped at `maxPatchBytes` plus one footer line saying what was left out. */
  readonly patch: string;
  readonly truncated: boolean;
  /** Changed or added lines of the new text (0-based), to name the declarations of the new version. */
  readonly newRanges: readonly LineRange[];
  /** Removed lines of the old text (0-based), to name declarations that were changed or deleted. */
  readonly oldRanges: readonly LineRange[];
  /** The texts differ only in line endings (CRLF against LF): a real change, but not an edit of content. */
  readonly lineEndingsOnly: boolean;
}

export const MAX_PATCH_BYTES = 64 * 1024;
export const DEFAULT_CONTEXT_LINES = 3;

/**
 * Myers' diff costs the square of the edit length to give up, so jsdiff stops past this many
 * changed lines (about 0.2 s) and the change is recorded as one hunk replacing the lines between
 * the common head and tail — exact for a single pasted or deleted block, coarse for a rewrite.
 */
const MAX_EDIT_LENGTH = 1000;

export interface DiffOptions {
  readonly maxPatchBytes?: number;
  readonly context?: number;
}

/**
 * What changed between two versions of a file. null when the texts are equal; `before` null
 * means the file was created, `after` null that it was deleted. Lines are compared without their
 * CRLF/LF endings, so an edit of a CRLF file is the same memory as the same edit of an LF file;
 * a conversion of the line endings alone is a change of every line, flagged `lineEndingsOnly`.
 */
export function diffTexts(path: string, before: string | null, after: string | null, options: DiffOptions = {}): TextDiff | null {
  if (before === after) return null;
  const oldLf = before === null ? null : withLfEndings(before);
  const newLf = after === null ? null : withLfEndings(after);
  const lineEndingsOnly = oldLf !== null && oldLf === newLf;
  const oldText = lineEndingsOnly ? before! : (oldLf ?? '');
  const newText = lineEndingsOnly ? after! : (newLf ?? '');
  const context = options.context ?? DEFAULT_CONTEXT_LINES;
  const hunks: readonly DiffHunk[] =
    structuredPatch(path, path, oldText, newText, undefined, undefined, { context, maxEditLength: MAX_EDIT_LENGTH })?.hunks ??
    [replacementHunk(oldText, newText, context)];
  const { added, removed, newRanges, oldRanges } = countChanges(hunks);
  const { patch, truncated } = capPatch(
    before === null ? '/dev/null' : `a/${path}`,
    after === null ? '/dev/null' : `b/${path}`,
    hunks,
    options.maxPatchBytes ?? MAX_PATCH_BYTES,
  );
  return { hunks, added, removed, patch, truncated, newRanges, oldRanges, lineEndingsOnly };
}

interface ChangeCounts {
  readonly added: number;
  readonly removed: number;
  readonly newRanges: readonly LineRange[];
  readonly oldRanges: readonly LineRange[];
}

function countChanges(hunks: readonly DiffHunk[]): ChangeCounts {
  const newLines: number[] = [];
  const oldLines: number[] = [];
  for (const hunk of hunks) {
    let oldLine = hunk.oldStart - 1;
    let newLine = hunk.newStart - 1;
    for (const line of hunk.lines) {
      if (line.startsWith('+')) newLines.push(newLine++);
      else if (line.startsWith('-')) oldLines.push(oldLine++);
      else if (line.startsWith(' ')) {
        oldLine++;
        newLine++;
      }
    }
  }
  return { added: newLines.length, removed: oldLines.length, newRanges: toRanges(newLines), oldRanges: toRanges(oldLines) };
}

/** Ascending line numbers merged into runs. */
function toRanges(lines: readonly number[]): LineRange[] {
  const ranges: LineRange[] = [];
  for (const line of lines) {
    const last = ranges[ranges.length - 1];
    if (last && last.endLine === line - 1) ranges[ranges.length - 1] = { startLine: last.startLine, endLine: line };
    else ranges.push({ startLine: line, endLine: line });
  }
  return ranges;
}

const NO_NEWLINE = '\\ No newline at end of file';

/** Lines with their terminators, split as jsdiff's `diffLines` splits them. */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * The fallback when jsdiff gives up: one hunk removing every old line and adding every new line
 * between the common head and tail, with `context` lines around it, formatted as jsdiff would.
 */
function replacementHunk(oldText: string, newText: string, context: number): DiffHunk {
  const oldLines = linesOf(oldText);
  const newLines = linesOf(newText);
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (
    tail < oldLines.length - head &&
    tail < newLines.length - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  ) {
    tail++;
  }
  const before = Math.min(context, head);
  const after = Math.min(context, tail);
  const lines: string[] = [];
  const push = (prefix: string, line: string): void => {
    lines.push(prefix + (line.endsWith('\n') ? line.slice(0, -1) : line));
    if (!line.endsWith('\n')) lines.push(NO_NEWLINE);
  };
  for (const line of oldLines.slice(head - before, head)) push(' ', line);
  for (const line of oldLines.slice(head, oldLines.length - tail)) push('-', line);
  for (const line of newLines.slice(head, newLines.length - tail)) push('+', line);
  for (const line of oldLines.slice(oldLines.length - tail, oldLines.length - tail + after)) push(' ', line);
  const oldCount = oldLines.length - head - tail;
  const newCount = newLines.length - head - tail;
  return {
    oldStart: head - before + 1,
    oldLines: before + oldCount + after,
    newStart: head - before + 1,
    newLines: before + newCount + after,
    lines,
  };
}

/**
 * Cap policy: whole hunks are kept from the start while the patch fits in `maxBytes` (UTF-8);
 * when the first hunk alone is larger, its first lines that fit are kept (a single line longer
 * than the cap is cut). A final line says how many hunk lines and hunks were left out. The hunks,
 * counts and ranges of a TextDiff always describe the whole change.
 */
function capPatch(oldName: string, newName: string, hunks: readonly DiffHunk[], maxBytes: number): { readonly patch: string; readonly truncated: boolean } {
  const kept: string[] = [`--- ${oldName}`, `+++ ${newName}`];
  let bytes = kept.reduce((sum, line) => sum + lineBytes(line), 0);
  let keptHunks = 0;
  for (const hunk of hunks) {
    const hunkText = [hunkHeader(hunk), ...hunk.lines];
    const size = hunkText.reduce((sum, line) => sum + lineBytes(line), 0);
    if (bytes + size > maxBytes) break;
    kept.push(...hunkText);
    bytes += size;
    keptHunks++;
  }
  if (keptHunks === hunks.length) return { patch: `${kept.join('\n')}\n`, truncated: false };

  let keptLinesOfPartialHunk = 0;
  const first = hunks[0];
  if (keptHunks === 0 && first && bytes + lineBytes(hunkHeader(first)) <= maxBytes) {
    kept.push(hunkHeader(first));
    bytes += lineBytes(hunkHeader(first));
    for (const line of first.lines) {
      if (bytes + lineBytes(line) > maxBytes) {
        if (keptLinesOfPartialHunk === 0) {
          kept.push(cutToBytes(line, maxBytes - bytes - 1));
          keptLinesOfPartialHunk++;
        }
        break;
      }
      kept.push(line);
      bytes += lineBytes(line);
      keptLinesOfPartialHunk++;
    }
  }
  const droppedHunks = hunks.length - keptHunks;
  const droppedLines = hunks.slice(keptHunks).reduce((sum, hunk) => sum + hunk.lines.length, 0) - keptLinesOfPartialHunk;
  kept.push(`… ${plural(droppedLines, 'more line')} in ${plural(droppedHunks, 'more hunk')} not kept (patch capped at ${sizeLabel(maxBytes)})`);
  return { patch: `${kept.join('\n')}\n`, truncated: true };
}

/** jsdiff's unified header: a range of no lines starts one line earlier. */
function hunkHeader(hunk: DiffHunk): string {
  const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
  const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
  return `@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`;
}

/** Bytes of a patch line with its newline. */
function lineBytes(line: string): number {
  return Buffer.byteLength(line, 'utf8') + 1;
}

/** The longest prefix of `line` that fits in `maxBytes` of UTF-8 without splitting a character. */
function cutToBytes(line: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  return new TextDecoder().decode(Buffer.from(line, 'utf8').subarray(0, maxBytes)).replace(/\uFFFD+$/, '');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function sizeLabel(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}
