import { openProject, type Project } from '../project';
import { namesBelow, pathKey } from '../paths/pathIdentity';
import { resolveProjectRoot, toProjectPath } from '../paths/engramPaths';
import { hostPaths, type PlatformPaths } from '../paths/platformPaths';
import { documentPath } from './documentPath';

export interface ProjectProblem {
  readonly root: string;
  readonly message: string;
}

/** A document resolved to its project: the project, the file's project-relative path and the file. */
export interface ProjectFile {
  readonly project: Project;
  readonly path: string;
  readonly file: string;
}

/**
 * Maps documents to the projects of the window's workspace folders and opens each project's
 * database once. Projects are keyed by `pathKey`, so a hook's `C:\Repo` finds the project VS Code
 * opened as `c:\Repo`. A project that cannot be opened is remembered as a problem, not retried per hover.
 */
export class ProjectRegistry {
  private readonly projects = new Map<string, Project>();
  private readonly problems = new Map<string, ProjectProblem>();
  private folders: string[] = [];

  constructor(
    private readonly onOpened: (project: Project) => void,
    private readonly paths: PlatformPaths = hostPaths,
  ) {}

  setWorkspaceFolders(folders: readonly string[]): void {
    this.folders = folders.map((f) => this.paths.path.resolve(f));
    for (const folder of this.folders) this.open(resolveProjectRoot(folder));
  }

  fileFor(uri: string): ProjectFile | null {
    const file = documentPath(uri, this.paths);
    if (file === null) return null;
    const project = this.projectHolding(file);
    if (!project) return null;
    const relative = toProjectPath(project.root, file, this.paths);
    return relative === null ? null : { project, path: relative, file };
  }

  /** The project of a file or folder URI, the project's own folder included. */
  projectFor(uri: string): Project | null {
    const file = documentPath(uri, this.paths);
    return file === null ? null : this.projectHolding(file);
  }

  /** The project of the innermost workspace folder holding `file`: the fewest names between them. */
  private projectHolding(file: string): Project | null {
    let folder: string | undefined;
    let fewest = Infinity;
    for (const candidate of this.folders) {
      const below = namesBelow(candidate, file, this.paths);
      if (below && below.length < fewest) [folder, fewest] = [candidate, below.length];
    }
    return folder === undefined ? null : this.open(resolveProjectRoot(folder));
  }

  /** The project at this root, however it is spelled, if this server has it open. */
  openAt(root: string): Project | null {
    return this.projects.get(pathKey(root, this.paths)) ?? null;
  }

  openProjects(): Project[] {
    return [...this.projects.values()];
  }

  openProblems(): ProjectProblem[] {
    return [...this.problems.values()];
  }

  closeAll(): void {
    for (const project of this.projects.values()) project.close();
    this.projects.clear();
  }

  private open(root: string): Project | null {
    const key = pathKey(root, this.paths);
    const existing = this.projects.get(key);
    if (existing) return existing;
    if (this.problems.has(key)) return null;
    try {
      const project = openProject(root, process.env, { resident: true });
      this.projects.set(key, project);
      this.onOpened(project);
      return project;
    } catch (error) {
      this.problems.set(key, { root, message: (error as Error).message });
      return null;
    }
  }
}
