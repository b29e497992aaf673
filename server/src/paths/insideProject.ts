import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isProjectPath } from '../memory/projectPath';
import { isSameOrInside } from './pathIdentity';

function realpathOrNull(file: string): string | null {
  try {
    return realpathSync.native(file);
  } catch (error) {
    // Missing (or below a file): the caller looks at the folder above. Unreadable: nothing to follow.
    void error;
    return null;
  }
}

/**
 * Whether project paths stay inside the project once symbolic links are followed: a path inside
 * it by its names may be a link, or lie below one, to anywhere (`docs/notes.md` → /etc/shadow),
 * and Engram must never read such a file into a memory (pinned lines keep their text and the
 * lines around them). A path that does not exist yet counts by its nearest existing folder.
 * Answers are kept, so an import's many paths cost one look at each.
 */
export class ProjectPathCheck {
  private readonly realRoot: string;
  private readonly realPaths = new Map<string, string | null>();

  constructor(private readonly root: string) {
    this.realRoot = realpathOrNull(root) ?? path.resolve(root);
  }

  /** Why `projectPath` is not a place inside the project, or null when it is. */
  problem(projectPath: string): string | null {
    if (!isProjectPath(projectPath)) return `"${projectPath}" is not a path inside the project (relative to its root, without ".." or an absolute start)`;
    const real = this.realPathOf(projectPath);
    if (real !== null && !isSameOrInside(this.realRoot, real)) return `${projectPath} leads out of the project, to ${real} (a symbolic link): Engram reads and tags only files inside the project`;
    return null;
  }

  /** Where the path really is, links followed up to its nearest existing part; null when nothing of it exists. */
  private realPathOf(projectPath: string): string | null {
    let real = this.realPaths.get(projectPath);
    if (real !== undefined) return real;
    real = realpathOrNull(path.join(this.root, projectPath));
    if (real === null) {
      const slash = projectPath.lastIndexOf('/');
      const parent = slash < 0 ? null : this.realPathOf(projectPath.slice(0, slash));
      real = slash < 0 ? this.realRoot : parent === null ? null : path.join(parent, projectPath.slice(slash + 1));
    }
    this.realPaths.set(projectPath, real);
    return real;
  }
}
