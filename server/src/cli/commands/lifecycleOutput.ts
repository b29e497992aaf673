import { LifecycleRefusal, UnknownMemoryError, type MemoryState } from '../../capacity/lifecycle';
import type { Project } from '../../project';
import { CliError } from '../command';

/** Runs a lifecycle operation, turning its refusals into the CLI's exit-1 errors. */
export function lifecycleStep<T>(project: Project, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof UnknownMemoryError) throw new CliError(`${error.message} in ${project.root}; nothing was changed`);
    if (error instanceof LifecycleRefusal) throw new CliError(`${error.message}; nothing was changed`);
    throw error;
  }
}

/** One memory on one line: id, kind, title. */
export function memoryLine(memory: Pick<MemoryState, 'id' | 'kind' | 'title'>): string {
  return `${memory.id}  ${memory.kind}  ${memory.title}`;
}
