import path from 'node:path';
import { openProject, type Project } from '../project';
import { ProjectPathCheck } from '../store/insideProject';
import { toProjectPath } from '../store/paths';
import { explainStoreError, storePlace } from '../store/storeProblem';
import { CliError, stringOption, type CliIO, type ParsedArgs } from './command';

/** Every command takes `--project DIR`; the default is the current directory. */
export const projectOptionSpec = { project: { type: 'string' } } as const;

export function openProjectFor(args: ParsedArgs, io: CliIO): Project {
  const folder = path.resolve(io.cwd, stringOption(args, 'project') ?? '.');
  const project = openProject(folder, io.env);
  for (const message of [...project.infos, ...project.notices]) io.err(`engram: ${message}\n`);
  return project;
}

/**
 * A file argument as a project-relative path: relative to the cwd when that lands inside the
 * project, else relative to the project root (so `--project demo --file src/db.ts` works too).
 * Checked with links followed: a link out of the project is refused like a path outside it.
 */
export function projectPathOf(project: Project, io: CliIO, file: string): string {
  const relative = toProjectPath(project.root, path.resolve(io.cwd, file)) ?? (path.isAbsolute(file) ? null : toProjectPath(project.root, file));
  if (relative === null) throw new CliError(`${file} is not inside the project ${project.root}`);
  const problem = new ProjectPathCheck(project.root).problem(relative);
  if (problem) throw new CliError(problem);
  return relative;
}

/**
 * Runs `use` on the project named by `--project` (default: the cwd) and always closes it (unless
 * lent). A store that is locked, read-only or full fails it with a StoreError: one line to print.
 */
export async function withProject<T>(args: ParsedArgs, io: CliIO, use: (project: Project) => T | Promise<T>): Promise<T> {
  // The memory server lends the project it has open (and has reported its notices already).
  if (io.lentProject) return use(io.lentProject);
  const project = openProjectFor(args, io);
  try {
    return await use(project);
  } catch (error) {
    throw explainStoreError(error, storePlace(project.databaseFile, io.env));
  } finally {
    project.close();
  }
}
