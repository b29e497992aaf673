import { URI } from 'vscode-uri';
import { hostPaths, type PlatformPaths } from '../paths/platformPaths';

/**
 * The file a document URI names, spelled for `paths`' platform; null when it is not a `file:`
 * URI. vscode-uri lower-cases a drive letter (`file:///C%3A/Repo` → `c:\Repo`) where a terminal
 * says `C:\Repo`: the two are compared with pathIdentity.ts, never as strings.
 */
export function documentPath(uri: string, paths: PlatformPaths = hostPaths): string | null {
  const parsed = URI.parse(uri);
  if (parsed.scheme !== 'file') return null;
  // fsPath uses the separators of the platform vscode-uri runs on; normalise gives `paths`' own.
  return paths.path.normalize(parsed.fsPath);
}
