import { globMatcher } from '../util/globMatcher';
import type { Anchor, Memory } from '../memory/types';

/**
 * What a constraint governs, derived from its tags so it cannot disagree with them: pinned code
 * (an anchor), named symbols of a file, whole files, a glob of project paths (`meta.glob`), or
 * the whole project (no tags at all).
 */
export type ConstraintScope =
  | { readonly kind: 'code'; readonly anchor: Anchor }
  | { readonly kind: 'symbol'; readonly files: readonly string[]; readonly symbols: readonly string[] }
  | { readonly kind: 'file'; readonly files: readonly string[] }
  | { readonly kind: 'glob'; readonly glob: string }
  | { readonly kind: 'project' };

export const SCOPE_KINDS = ['code', 'symbol', 'file', 'glob', 'project'] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];

export function globOf(memory: Memory): string | null {
  const glob = memory.meta.glob;
  return typeof glob === 'string' && glob.trim() ? glob : null;
}

export function scopeOf(memory: Memory): ConstraintScope {
  if (memory.anchor) return { kind: 'code', anchor: memory.anchor };
  if (memory.files.length && memory.symbols.length) return { kind: 'symbol', files: memory.files, symbols: memory.symbols };
  if (memory.files.length) return { kind: 'file', files: memory.files };
  const glob = globOf(memory);
  return glob ? { kind: 'glob', glob } : { kind: 'project' };
}

const matchers = new Map<string, (path: string) => boolean>();
/** Each glob's last answer: a recall asks every glob-scoped constraint about the same file. */
const lastAnswers = new Map<string, { readonly path: string; readonly matches: boolean }>();

/** A glob's text before its first pattern character: every path it matches starts with it. */
function literalPrefix(glob: string): string {
  // picomatch reads `./src/**` as `src/**`.
  const pattern = glob.replace(/^(?:\.\/)+/, '');
  const special = pattern.search(/[*?[\]{}()!+@\\]/);
  return special < 0 ? pattern : pattern.slice(0, special);
}

/** Whether a project path falls under a glob (picomatch, dot files included); an invalid glob matches nothing. */
export function globMatches(glob: string, path: string): boolean {
  // Most globs name another folder: no matcher is compiled to say so (~0.05 ms each, hundreds on a first hover).
  if (!path.startsWith(literalPrefix(glob))) return false;
  const last = lastAnswers.get(glob);
  if (last && last.path === path) return last.matches;
  let matcher = matchers.get(glob);
  if (!matcher) {
    try {
      matcher = globMatcher(glob, { dot: true });
    } catch {
      matcher = () => false;
    }
    if (matchers.size > 500) matchers.clear();
    matchers.set(glob, matcher);
  }
  const matches = matcher(path);
  if (lastAnswers.size > 500) lastAnswers.clear();
  lastAnswers.set(glob, { path, matches });
  return matches;
}

/** Whether a constraint applies to `path` (any line of it). */
export function governsFile(memory: Memory, path: string): boolean {
  const scope = scopeOf(memory);
  switch (scope.kind) {
    case 'code':
      return scope.anchor.path === path;
    case 'symbol':
    case 'file':
      return scope.files.includes(path);
    case 'glob':
      return globMatches(scope.glob, path);
    case 'project':
      return true;
  }
}

/** A short label for hover and panels: "this code", "OrderService.cancel", "src/db.ts", "src/**", "the whole project". */
export function scopeLabel(scope: ConstraintScope): string {
  switch (scope.kind) {
    case 'code':
      return `lines ${scope.anchor.range.startLine + 1}–${scope.anchor.range.endLine + 1} of ${scope.anchor.path}${scope.anchor.stale ? ' (stale: the code is gone)' : ''}`;
    case 'symbol':
      return `${scope.symbols.join(', ')} in ${scope.files.join(', ')}`;
    case 'file':
      return scope.files.join(', ');
    case 'glob':
      return `files matching ${scope.glob}`;
    case 'project':
      return 'the whole project';
  }
}
