import { ActionRefusal, UnknownMemoryError } from '../../actions/errors';
import type { MemoryState } from '../../actions/status';
import type { Project } from '../../project';
import { TeamFileError } from '../../team/shareMemory';
import { CliError } from '../command';

/** Runs an action on memories, turning its refusals into the CLI's exit-1 errors. */
export function lifecycleStep<T>(project: Project, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof UnknownMemoryError) throw new CliError(`${error.message} in ${project.root}; nothing was changed`);
    if (error instanceof ActionRefusal || error instanceof TeamFileError) throw new CliError(`${error.message}; nothing was changed`);
    throw error;
  }
}

/** One memory on one line: id, kind, title. */
export function memoryLine(memory: Pick<MemoryState, 'id' | 'kind' | 'title'>): string {
  return `${memory.id}  ${memory.kind}  ${memory.title}`;
}
