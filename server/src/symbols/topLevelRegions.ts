import type { LineRange } from './symbolsForRanges';

/**
 * How a line can take part in top-level structure, judged from its first characters only, so it
 * holds for every language Engram parses:
 * - `start`: at column 0 and able to begin a declaration or statement (`export class`, `def`,
 *   `func`, `pub fn`, `static int`, `namespace`, `(function () {`);
 * - `attached`: at column 0 and belonging to what follows (`@decorator`, `#[attribute]`,
 *   `[Attribute]`, `#include`, a `//`, `/*` or `#` comment);
 * - `comment`: inside a comment above a declaration (` * text`, an indented `//` or `#`, a column-0 `*`);
 * - `continuation`: anything else: indented code, and column-0 lines that end or continue
 *   something (`}`, `)`, `]`, `end`, `else:`, `except`, a closing quote or string content);
 * - `blank`.
 */
type LineKind = 'start' | 'attached' | 'comment' | 'continuation' | 'blank';

/** Column-0 words that continue a construct above them (Python, Ruby, C-family). */
const CONTINUING_WORDS: ReadonlySet<string> = new Set([
  'end', 'else', 'elif', 'elsif', 'except', 'finally', 'rescue', 'ensure', 'when', 'then', 'catch', 'do',
]);

/** The index at which each line of `text` starts; rows count '\n' only, as tree-sitter does. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  return starts;
}

/**
 * The top-level regions of `text` holding `lines`, merged, in order. A region is a run of whole
 * chunks; a chunk begins at a run of column-0 lines (with the comments, decorators and attributes
 * directly above them) that holds a `start` line, and lasts until the next chunk begins. In
 * formatted code that is a top-level declaration or statement with everything inside it. Only a
 * guess: code inside strings, comments or unindented blocks can look like a chunk, so callers
 * validate the regions before trusting them.
 */
export function topLevelRegions(text: string, starts: readonly number[], lines: readonly LineRange[]): LineRange[] {
  const chunks = chunkStarts(text, starts);
  const last = starts.length - 1;
  const regions = lines
    .map((range) => {
      const first = clamp(Math.min(range.startLine, range.endLine), last);
      const final = clamp(Math.max(range.startLine, range.endLine), last);
      const next = chunks.find((chunk) => chunk > final);
      return { startLine: findLast(chunks, (chunk) => chunk <= first) ?? 0, endLine: next === undefined ? last : next - 1 };
    })
    .sort((a, b) => a.startLine - b.startLine);
  const merged: LineRange[] = [];
  for (const region of regions) {
    const previous = merged[merged.length - 1];
    if (previous && region.startLine <= previous.endLine + 1) merged[merged.length - 1] = { startLine: previous.startLine, endLine: Math.max(previous.endLine, region.endLine) };
    else merged.push(region);
  }
  return merged;
}

/** The first line of each chunk, ascending; line 0 always begins one. */
function chunkStarts(text: string, starts: readonly number[]): number[] {
  const chunks = [0];
  // The current run of start, attached and comment lines: where its first column-0 line is, and whether it holds a start.
  let runHead = -1;
  let runHasStart = false;
  const endRun = (): void => {
    if (runHasStart && runHead > 0) chunks.push(runHead);
    runHead = -1;
    runHasStart = false;
  };
  for (let line = 0; line < starts.length; line++) {
    const kind = lineKind(text, starts[line]!);
    if (kind === 'blank' || kind === 'continuation') {
      endRun();
      continue;
    }
    if (kind !== 'comment' && runHead === -1) runHead = line;
    if (kind === 'start') runHasStart = true;
  }
  endRun();
  return chunks;
}

function lineKind(text: string, at: number): LineKind {
  const first = text.charCodeAt(at);
  if (first === SPACE || first === TAB) return indentedKind(text, at);
  if (Number.isNaN(first) || first === NEWLINE || first === CARRIAGE_RETURN) return 'blank';
  const second = text.charCodeAt(at + 1);
  if (first === SLASH) return second === SLASH || second === STAR ? 'attached' : 'continuation';
  if (first === AT || first === HASH || first === OPEN_SQUARE) return 'attached';
  if (first === STAR) return 'comment';
  if (first === OPEN_PAREN || first === SEMICOLON) return 'start';
  if (!isIdentifierStart(first)) return 'continuation';
  let end = at + 1;
  while (end < text.length && isIdentifierPart(text.charCodeAt(end))) end++;
  return CONTINUING_WORDS.has(text.slice(at, end)) ? 'continuation' : 'start';
}

/** An indented line is a comment line (` * text`, `  // text`, `  # text`) or code. */
function indentedKind(text: string, at: number): LineKind {
  let index = at;
  while (text.charCodeAt(index) === SPACE || text.charCodeAt(index) === TAB) index++;
  const first = text.charCodeAt(index);
  if (Number.isNaN(first) || first === NEWLINE || first === CARRIAGE_RETURN) return 'blank';
  const second = text.charCodeAt(index + 1);
  if (first === STAR || first === HASH || (first === SLASH && (second === SLASH || second === STAR))) return 'comment';
  return 'continuation';
}

function isIdentifierStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === UNDERSCORE || code === DOLLAR || code >= 0x80;
}

function isIdentifierPart(code: number): boolean {
  return isIdentifierStart(code) || (code >= 48 && code <= 57);
}

function clamp(line: number, last: number): number {
  return Math.max(0, Math.min(line, last));
}

function findLast<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let index = items.length - 1; index >= 0; index--) if (test(items[index]!)) return items[index];
  return undefined;
}

const TAB = 9;
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const SPACE = 32;
const HASH = 35;
const DOLLAR = 36;
const OPEN_PAREN = 40;
const STAR = 42;
const SLASH = 47;
const SEMICOLON = 59;
const AT = 64;
const OPEN_SQUARE = 91;
const UNDERSCORE = 95;
