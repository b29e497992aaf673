import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { MEMORY_KINDS } from '../memory/types';
import type { Project } from '../project';
import { ProjectPathCheck } from '../paths/insideProject';
import { toProjectPath } from '../paths/engramPaths';
import { ToolInputError } from './toolResult';

/** Schemas shared by several tools' inputs. Messages are written for the model that has to fix the call. */

/** What an agent may store; diffs, summaries and intents are Engram's own. */
export const AGENT_KINDS = ['decision', 'constraint', 'gotcha', 'fact', 'note'] as const;

export const memoryIdArg = z.string().min(1).max(100).describe('A memory id as returned by other Engram tools, e.g. "m_01J9Z…"');

export const memoryIdsArg = z
  .array(memoryIdArg)
  .min(1, { error: 'give at least one id' })
  .max(100, { error: 'at most 100 ids per call' });

export const fileArg = z
  .string()
  .min(1)
  .max(1000)
  .describe('A file of the project: relative to the project root (src/db.ts) or absolute inside it');

export const symbolArg = z.string().min(1).max(300).describe('A qualified declaration name, e.g. "OrderService.cancel"');

export const kindsArg = z
  .array(z.enum(MEMORY_KINDS, { error: `kinds are ${MEMORY_KINDS.join(', ')}` }))
  .max(MEMORY_KINDS.length)
  .describe(`Only these kinds (${MEMORY_KINDS.join(', ')})`);

/**
 * A file argument as a project path ('/'-separated, relative to the root). Absolute paths and
 * file:// URIs must be inside the project; relative ones are taken from the root. Checked with
 * links followed: a link out of the project is refused like a path outside it.
 */
export function projectFile(project: Project, file: string): string {
  let value = file.trim();
  if (value.startsWith('file://')) {
    try {
      value = fileURLToPath(value);
    } catch (error) {
      throw new ToolInputError(`"${file}" is not a usable file URI: ${(error as Error).message}`);
    }
  }
  const relative = toProjectPath(project.root, value);
  if (relative === null) throw new ToolInputError(`"${file}" is not a file inside the project ${project.root}; give a path relative to it`);
  const problem = new ProjectPathCheck(project.root).problem(relative);
  if (problem) throw new ToolInputError(problem);
  return relative;
}
