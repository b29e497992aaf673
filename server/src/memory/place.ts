import { globOf } from '../constraints/scope';
import type { Memory } from './types';

/**
 * Where a memory applies, in words, for the memory views and for agents: "lines 5–13 of
 * src/db.ts", "src/db.ts › findCustomer", "files matching src/**", "the whole project".
 */
export function placeOf(memory: Memory): string {
  if (memory.anchor) {
    const { path, range, stale } = memory.anchor;
    const lines = range.startLine === range.endLine ? `line ${range.startLine + 1}` : `lines ${range.startLine + 1}–${range.endLine + 1}`;
    return `${lines} of ${path}${stale ? ' (stale: the code it was pinned to is gone)' : ''}`;
  }
  if (memory.files.length) {
    const symbols = memory.symbols.length ? ` › ${memory.symbols.slice(0, 3).join(', ')}${memory.symbols.length > 3 ? ', …' : ''}` : '';
    return `${memory.files.slice(0, 3).join(', ')}${memory.files.length > 3 ? ', …' : ''}${symbols}`;
  }
  if (memory.symbols.length) return memory.symbols.slice(0, 3).join(', ');
  const glob = globOf(memory);
  if (glob) return `files matching ${glob}`;
  return memory.kind === 'constraint' ? 'the whole project' : '';
}
