/**
 * A path as Engram stores it: relative to the project root, names separated by '/', none of them
 * empty, '.' or '..', and no absolute start (`/`, `\`, `C:`). Backslashes count as separators
 * too: on Windows `..\x` leads out as surely as `../x`. (Links are followed where the project is
 * at hand: paths/insideProject.ts.)
 */
export function isProjectPath(projectPath: string): boolean {
  if (!projectPath || /^([\\/]|[A-Za-z]:)/.test(projectPath)) return false;
  return projectPath.split(/[\\/]/).every((name) => name !== '' && name !== '.' && name !== '..');
}
