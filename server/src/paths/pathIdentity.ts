import { hostPaths, type PlatformPaths } from './platformPaths';

/** `text` as the file system compares names: lower-cased where it ignores case. */
export function foldCase(text: string, paths: PlatformPaths = hostPaths): string {
  return paths.caseInsensitive ? text.toLowerCase() : text;
}

/**
 * One string per file or folder, however it is spelled: absolute, normalised (`/` and `\` on
 * Windows), without a trailing separator, and lower-cased where the file system ignores case
 * (`C:\Repo` and `c:/repo` give one key). For keying and hashing, never for showing.
 */
export function pathKey(file: string, paths: PlatformPaths = hostPaths): string {
  return foldCase(paths.path.resolve(file), paths);
}

/**
 * The names that lead from `folder` down to `file`, as `file` spells them: [] when it is the
 * folder itself, null when it is outside. Compared name by name, so a file named `..x` is inside
 * and a drive letter's case does not matter where the file system ignores case.
 */
export function namesBelow(folder: string, file: string, paths: PlatformPaths = hostPaths): string[] | null {
  const from = paths.path.resolve(folder);
  const to = paths.path.resolve(file);
  const fold = (name: string) => foldCase(name, paths);
  const fromRoot = paths.path.parse(from).root;
  const toRoot = paths.path.parse(to).root;
  if (fold(fromRoot) !== fold(toRoot)) return null;
  const fromNames = from.slice(fromRoot.length).split(paths.path.sep).filter(Boolean);
  const toNames = to.slice(toRoot.length).split(paths.path.sep).filter(Boolean);
  if (toNames.length < fromNames.length) return null;
  for (let i = 0; i < fromNames.length; i++) if (fold(fromNames[i]!) !== fold(toNames[i]!)) return null;
  return toNames.slice(fromNames.length);
}

/** `file` is `folder` or inside it. */
export function isSameOrInside(folder: string, file: string, paths: PlatformPaths = hostPaths): boolean {
  return namesBelow(folder, file, paths) !== null;
}
