import type { AnchorKeeper } from '../anchors/anchorKeeper';
import { scopeOf } from '../constraints/scope';
import type { Memory } from '../memory/types';

/**
 * Does a constraint govern this line: its pinned code (where it is now, following unsaved edits)
 * contains it, or it names the symbol the line is in? Stale pinned code governs no line.
 */
export function governsLine(constraint: Memory, line: number | undefined, symbol: string | null, live: ReturnType<AnchorKeeper['liveAnchors']>): boolean {
  if (line === undefined) return false;
  const scope = scopeOf(constraint);
  if (scope.kind === 'code') {
    const current = live?.get(constraint.id);
    const span = current ? current.span : { start: scope.anchor.range.startLine, end: scope.anchor.range.endLine };
    const stale = current ? current.stale : scope.anchor.stale;
    return !stale && line >= span.start && line <= span.end;
  }
  if (scope.kind === 'symbol' && symbol) return scope.symbols.some((s) => s === symbol || symbol.startsWith(`${s}.`));
  return false;
}
