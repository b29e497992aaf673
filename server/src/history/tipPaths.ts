import type { FileChange, GitCommit } from './gitLogParser';

/**
 * Where each changed file lives at the tip of the history read, following the renames made after
 * the change (like `git log --follow`): the change of `lib/http.js` in 2012 is tagged with
 * `lib/server/http.js` when it was moved there in 2015, as capture moves the memories of a file
 * renamed while Engram watches. Only changes whose file moved are in the map. `commits` are
 * oldest first; a path deleted later, or replaced by another file of the same name, stays as it was.
 */
export function tipPathsOf(commits: readonly GitCommit[]): Map<FileChange, string> {
  const moved = new Map<FileChange, string>();
  // A path as it was before the commit being looked at → the path of the same file at the tip.
  const later = new Map<string, string>();
  for (let i = commits.length - 1; i >= 0; i--) {
    const changes = commits[i]!.changes;
    for (const change of changes) {
      const tip = change.path === null ? undefined : later.get(change.path);
      if (tip !== undefined) moved.set(change, tip);
    }
    // Going back past this commit: renamed files had their old names; files it created,
    // renamed into place or deleted were, under that name, some other file or none.
    const renamedFrom: [string, string][] = [];
    for (const change of changes) {
      if (change.status === 'renamed' && change.oldPath !== null && change.path !== null) renamedFrom.push([change.oldPath, later.get(change.path) ?? change.path]);
    }
    for (const change of changes) {
      if (change.path !== null && change.status !== 'modified' && change.status !== 'type-changed') later.delete(change.path);
    }
    for (const [oldPath, tip] of renamedFrom) later.set(oldPath, tip);
  }
  return moved;
}
