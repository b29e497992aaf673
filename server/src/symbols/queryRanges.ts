import type { Node, Point } from 'web-tree-sitter';
import { FILE_SCOPED_NAMESPACE, WRAPPER_TYPES } from './declarationExtent';
import type { LineRange } from './symbolsForRanges';

/** Part of a tree to run the declaration query over: whole rows, end exclusive. */
export interface QueryRange {
  readonly startPosition: Point;
  readonly endPosition: Point;
}

interface Rows {
  start: number;
  /** Exclusive. */
  end: number;
}

/** Past this many separate ranges, one range from the first to the last is cheaper to query. */
const MAX_RANGES = 32;

const EXTENDING_TYPES: readonly string[] = ['decorator', ...WRAPPER_TYPES];

/**
 * The rows to query so that every declaration overlapping `lines` is found, with every declaration
 * enclosing it. A query over rows finds the declarations whose nodes intersect them, which
 * encloses the enclosing ones; the ranges are widened for the declarations that begin before
 * their node (a decorator or `export` line) and end after it (a C# file-scoped namespace).
 */
export function queryRangesFor(root: Node, lines: readonly LineRange[]): QueryRange[] {
  const widened = lines.map((range) => widenedRows(root, range));
  widened.push(...fileScopedNamespaces(root));
  return merged(widened).map((rows) => ({ startPosition: { row: rows.start, column: 0 }, endPosition: { row: rows.end, column: 0 } }));
}

/**
 * A declaration whose decorator or wrapper starts in the range may have its own node after it:
 * the range reaches on to that node.
 */
function widenedRows(root: Node, range: LineRange): Rows {
  const rows = { start: range.startLine, end: range.endLine + 1 };
  const extending = root.descendantsOfType([...EXTENDING_TYPES], { row: rows.start, column: 0 }, { row: rows.end, column: 0 });
  let end = rows.end;
  for (const node of extending) {
    if (!node || node.startPosition.row < rows.start) continue;
    if (node.type === 'decorator') {
      let decorated = node.nextNamedSibling;
      while (decorated?.type === 'decorator') decorated = decorated.nextNamedSibling;
      if (decorated) end = Math.max(end, decorated.startPosition.row + 1);
    } else end = Math.max(end, node.endPosition.row + 1);
  }
  return { start: rows.start, end };
}

/** A file-scoped namespace qualifies everything after it, so it is always queried. */
function fileScopedNamespaces(root: Node): Rows[] {
  // Only a C# compilation unit can hold one; other roots are not scanned.
  if (root.type !== 'compilation_unit') return [];
  return root.namedChildren
    .filter((child) => child?.type === FILE_SCOPED_NAMESPACE)
    .map((child) => ({ start: child!.startPosition.row, end: child!.endPosition.row + 1 }));
}

function merged(ranges: readonly Rows[]): Rows[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const result: Rows[] = [];
  for (const rows of sorted) {
    const last = result[result.length - 1];
    if (last && rows.start <= last.end) last.end = Math.max(last.end, rows.end);
    else result.push({ ...rows });
  }
  if (result.length <= MAX_RANGES) return result;
  return [{ start: result[0]!.start, end: Math.max(...result.map((rows) => rows.end)) }];
}
