import { globMatcher } from '../util/globMatcher';
import { anchorLines } from '../anchors/anchorFromText';
import type { Memory, NewMemory } from '../memory/types';
import type { Project } from '../project';
import type { PinScope } from '../../../contracts/protocol';

export interface PinRequest {
  readonly path: string;
  /** The file's current text (the editor's, saved or not). */
  readonly text: string;
  /** 0-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  readonly rule: string;
  readonly scope: PinScope;
  readonly glob?: string;
  readonly strength: 'hard' | 'soft';
  readonly why?: string;
  /** The declaration the selection is in. */
  readonly symbol: string | null;
}

/** A pin that cannot be made as asked; the message says what to change. */
export class PinError extends Error {}

const TITLE_MAX = 120;

/** Checks a glob before it is stored: a typo should fail now, not match nothing forever. */
export function checkGlob(glob: string | undefined): string {
  const trimmed = glob?.trim() ?? '';
  if (!trimmed) throw new PinError('a glob scope needs a glob, e.g. src/**/*.ts');
  if (trimmed.startsWith('/') || trimmed.includes('..')) throw new PinError(`the glob "${trimmed}" must be relative to the project, without ".."`);
  try {
    globMatcher(trimmed);
  } catch (error) {
    throw new PinError(`the glob "${trimmed}" is not valid: ${(error as Error).message}`);
  }
  return trimmed;
}

/** The tags that make a constraint's scope (see constraints/scope.ts). */
function scopeTags(request: PinRequest): Pick<NewMemory, 'files' | 'symbols' | 'anchor' | 'meta'> {
  switch (request.scope) {
    case 'code':
      try {
        return { files: [request.path], symbols: request.symbol ? [request.symbol] : [], anchor: anchorLines(request.path, request.text, request.startLine, request.endLine) };
      } catch (error) {
        throw new PinError((error as Error).message);
      }
    case 'symbol':
      if (!request.symbol) throw new PinError(`the selection is not inside a declaration Engram can name in ${request.path}; pin it as code or as the file`);
      return { files: [request.path], symbols: [request.symbol] };
    case 'file':
      return { files: [request.path] };
    case 'glob':
      return { meta: { glob: checkGlob(request.glob) } };
    case 'project':
      return {};
  }
}

/** Stores a pinned constraint from an editor selection (hard: never evicted, always given where it applies). */
export function pinConstraint(project: Project, request: PinRequest): Memory {
  const rule = request.rule.trim();
  if (!rule) throw new PinError('the rule is empty');
  // Redacted before it is cut into a title: a cut secret is not recognized.
  const firstLine = project.redactor.text(rule).split('\n')[0]!.trim();
  return project.store.add({
    kind: 'constraint',
    title: firstLine.length > TITLE_MAX ? `${firstLine.slice(0, TITLE_MAX - 1)}…` : firstLine,
    body: rule,
    why: request.why?.trim() || null,
    source: 'user',
    pin: request.strength,
    importance: request.strength === 'hard' ? 1 : 0.8,
    ...scopeTags(request),
  });
}
