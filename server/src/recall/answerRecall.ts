// fs.promises, not node:fs/promises: loaded when first used, not by every command that imports this.
import { promises as fsPromises } from 'node:fs';
import path from 'node:path';
import { keptGoverningConstraints } from '../constraints/governing';
import type { MemoryKind } from '../memory/types';
import type { Project } from '../project';
import { symbolAt } from '../symbols';
import { assembleContext, type AssembledContext } from './contextAssembly';
import { recall, type RecallOptions, type ScoredMemory } from './recall';

/** Everything a caller (CLI, LSP, hooks, MCP) can ask recall. Lines are 0-based here. */
export interface RecallQuery {
  readonly query?: string;
  readonly file?: string;
  readonly line?: number;
  readonly symbol?: string;
  readonly openFiles?: readonly string[];
  /** An agent session: what it was already given is left out. */
  readonly sessionId?: string;
  /** Memories the caller shows already (the memory panel's constraints): left out, not counted against `limit`. */
  readonly leaveOut?: ReadonlySet<string>;
  /** Fit the results into this many tokens (hard-pinned constraints of the file always included). */
  readonly budget?: number;
  readonly limit: number;
  readonly kinds?: readonly MemoryKind[];
  readonly includeArchived?: boolean;
}

export interface RecallAnswer {
  readonly results: readonly ScoredMemory[];
  /** The declaration at the cursor, when a file and line were given and the language has symbols. */
  readonly symbol: string | null;
  /** With a budget: what fits, as text for an agent. */
  readonly context: AssembledContext | null;
}

/** How recall ranks, beyond the settings: for evaluation (the bench compares the two ways). */
export type RecallTuning = Pick<RecallOptions, 'rankedPostings'>;

/** A question recall cannot answer as asked: the message says what to change. */
export class RecallInputError extends Error {}

/** The query's file text: given by an editor, or read from disk (null when it is not there). */
async function fileText(project: Project, file: string): Promise<string | null> {
  try {
    return await fsPromises.readFile(path.join(project.root, file), 'utf8');
  } catch {
    return null;
  }
}

/**
 * Recall with its context worked out: the symbol at the cursor (tree-sitter), what the session
 * was already given, and, with a budget, the assembled context.
 */
export async function answerRecall(project: Project, query: RecallQuery, text?: string | null, tuning: RecallTuning = {}): Promise<RecallAnswer> {
  let symbol = query.symbol ?? null;
  let lineText: string | undefined;
  if (query.file && query.line !== undefined) {
    const content = text === undefined ? await fileText(project, query.file) : text;
    if (content !== null) {
      const lines = content.split('\n');
      if (query.line < 0 || query.line >= lines.length) throw new RecallInputError(`line ${query.line + 1} is past the end of ${query.file}, which has ${lines.length} lines`);
      symbol ??= await symbolAt(query.file, content, query.line);
      lineText = lines[query.line];
    }
  }
  const alreadyGiven = query.sessionId ? project.injections.givenTo(query.sessionId) : undefined;
  const exclude = query.leaveOut && alreadyGiven ? new Set([...alreadyGiven, ...query.leaveOut]) : (query.leaveOut ?? alreadyGiven);
  const results = recall(
    project.store,
    { query: query.query, file: query.file, line: query.line, lineText, symbol: symbol ?? undefined, openFiles: query.openFiles, kinds: query.kinds, includeArchived: query.includeArchived, limit: query.limit },
    { weights: project.recallWeights, usage: project.usage, exclude, ...tuning },
  );
  let context: AssembledContext | null = null;
  if (query.budget !== undefined) {
    const required = query.file ? keptGoverningConstraints(project.store, query.file).filter((c) => c.pin === 'hard') : [];
    context = assembleContext(required, results, query.budget, { alreadyGiven });
  }
  return { results, symbol, context };
}
