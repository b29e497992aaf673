import path from 'node:path';
import { openProject, type Project } from '../project';
import { ProjectPathCheck } from '../paths/insideProject';
import { toProjectPath } from '../paths/engramPaths';
import { explainStoreError, storePlace } from '../store/storeProblem';
import { CliError, stringOption, type CliIO, type ParsedArgs } from './command';

/** Every command takes `--project DIR`; the default is the current directory. */
export const projectOptionSpec = { project: { type: 'string' } } as const;

/**
 * Opens the project and, unless `sweep` is false, first re-redacts what it stored before its
 * redaction rules changed (store/redactionSweep.ts), so no command reads or exports it raw.
 */
export function openProjectFor(args: ParsedArgs, io: CliIO, options: { readonly sweep?: boolean } = {}): Project {
  const folder = path.resolve(io.cwd, stringOption(args, 'project') ?? '.');
  const project = openProject(folder, io.env);
  for (const message of [...project.infos, ...project.notices]) io.err(`engram: ${message}\n`);
  if (options.sweep !== false) {
    try {
      sweepRedactions(project, io);
    } catch (error) {
      project.close();
      throw explainStoreError(error, storePlace(project.databaseFile, io.env));
    }
  }
  return project;
}

/** Runs a due redaction sweep to its end; says so when it rewrote something. */
export function sweepRedactions(project: Project, io: CliIO): string | null {
  const outcome = project.redactionSweep.runToEnd();
  if (!outcome?.rewritten) return null;
  const removed = outcome.removedBackup ? `; removed the backup taken before it (${outcome.removedBackup}), which held them` : '';
  const message = `redacted secrets that newer redaction rules know in ${outcome.rewritten} stored texts${removed}`;
  io.err(`engram: ${message}\n`);
  return message;
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
export async function withProject<T>(args: ParsedArgs, io: CliIO, use: (project: Project) => T | Promise<T>, options: { readonly sweep?: boolean } = {}): Promise<T> {
  // The memory server lends the project it has open (and has reported its notices already).
  if (io.lentProject) return use(io.lentProject);
  const project = openProjectFor(args, io, options);
  try {
    return await use(project);
  } catch (error) {
    throw explainStoreError(error, storePlace(project.databaseFile, io.env));
  } finally {
    project.close();
  }
}
