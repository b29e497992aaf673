import type { Declaration } from './declarations';

export interface LineRange {
  /** 0-based, inclusive. */
  readonly startLine: number;
  /** 0-based, inclusive. */
  readonly endLine: number;
}

/**
 * Qualified names of the innermost declarations each changed range overlaps, deduplicated, in
 * source order. An edit inside a method names the method, not its class; an edit spanning two
 * methods names both; an edit between a class's methods names the class.
 */
export function symbolsForRanges(decls: readonly Declaration[], ranges: readonly LineRange[]): string[] {
  const touched = new Set<Declaration>();
  for (const range of ranges) {
    const overlapping = decls.filter((decl) => overlaps(decl, range));
    for (const decl of overlapping) {
      if (!overlapping.some((other) => isNestedIn(other, decl))) touched.add(decl);
    }
  }
  const names: string[] = [];
  for (const decl of decls) if (touched.has(decl) && !names.includes(decl.name)) names.push(decl.name);
  return names;
}

function overlaps(decl: Declaration, range: LineRange): boolean {
  return decl.startLine <= range.endLine && range.startLine <= decl.endLine;
}

/** Nesting shows in qualified names: `Parser.peek` is in `Parser`, even when both span one line. */
function isNestedIn(inner: Declaration, outer: Declaration): boolean {
  return inner.name.startsWith(`${outer.name}.`) && outer.startLine <= inner.startLine && inner.endLine <= outer.endLine;
}
