import path from 'node:path';
import { URI } from 'vscode-uri';
import { openProject, type Project } from '../project';
import { resolveProjectRoot, toProjectPath } from '../store/paths';

export interface ProjectProblem {
  readonly root: string;
  readonly message: string;
}

/** A document resolved to its project: the project and the file's project-relative path. */
export interface ProjectFile {
  readonly project: Project;
  readonly path: string;
}

/**
 * Maps documents to the projects of the window's workspace folders and opens each project's
 * database once. A project that cannot be opened is remembered as a problem, not retried per hover.
 */
export class ProjectRegistry {
  private readonly projects = new Map<string, Project>();
  private readonly problems = new Map<string, ProjectProblem>();
  private folders: string[] = [];

  constructor(private readonly onOpened: (project: Project) => void) {}

  setWorkspaceFolders(folders: readonly string[]): void {
    this.folders = folders.map((f) => path.resolve(f));
    for (const folder of this.folders) this.open(resolveProjectRoot(folder));
  }

  fileFor(uri: string): ProjectFile | null {
    const parsed = URI.parse(uri);
    if (parsed.scheme !== 'file') return null;
    const file = parsed.fsPath;
    const folder = this.folders
      .filter((f) => file === f || file.startsWith(f + path.sep))
      .sort((a, b) => b.length - a.length)[0];
    if (!folder) return null;
    const project = this.open(resolveProjectRoot(folder));
    if (!project) return null;
    const relative = toProjectPath(project.root, file);
    return relative === null ? null : { project, path: relative };
  }

  /** The project at this root, if this server has it open. */
  openAt(root: string): Project | null {
    return this.projects.get(path.resolve(root)) ?? null;
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
    const existing = this.projects.get(root);
    if (existing) return existing;
    if (this.problems.has(root)) return null;
    try {
      const project = openProject(root, process.env, { resident: true });
      this.projects.set(root, project);
      this.onOpened(project);
      return project;
    } catch (error) {
      this.problems.set(root, { root, message: (error as Error).message });
      return null;
    }
  }
}
