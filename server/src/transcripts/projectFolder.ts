import { userHome } from '../paths/engramPaths';
import { hostPaths, type PlatformPaths } from '../paths/platformPaths';

/** Claude Code cuts longer folder names and appends a hash so distinct long paths stay distinct. */
const MAX_FOLDER_NAME = 200;

/** Claude Code's settings and transcripts folder: `CLAUDE_CONFIG_DIR`, else `.claude` in the user's home (USERPROFILE on Windows). */
export function claudeConfigDir(env: NodeJS.ProcessEnv, paths: PlatformPaths = hostPaths): string {
  if (env.CLAUDE_CONFIG_DIR) return env.CLAUDE_CONFIG_DIR;
  return paths.path.join(userHome(env, paths), '.claude');
}

/** The folder that holds one transcript folder per project (per encoded cwd). */
export function projectsDir(env: NodeJS.ProcessEnv, paths: PlatformPaths = hostPaths): string {
  return paths.path.join(claudeConfigDir(env, paths), 'projects');
}

/** Java's `String.hashCode`, which Claude Code uses to tell apart long paths cut to the same prefix. */
function javaStringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return hash;
}

/** Every UTF-16 code unit that is not an ASCII letter or digit becomes '-', as Claude Code does. */
export function sanitizeCwd(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/** The name of the folder under `projects/` where Claude Code keeps the transcripts of sessions started in `cwd`. */
export function encodeProjectFolder(cwd: string): string {
  const sanitized = sanitizeCwd(cwd);
  if (sanitized.length <= MAX_FOLDER_NAME) return sanitized;
  return `${sanitized.slice(0, MAX_FOLDER_NAME)}-${Math.abs(javaStringHash(cwd)).toString(36)}`;
}

/**
 * What the folder name of every session started strictly inside `cwd` begins with. The encoding
 * is lossy (and cut for long paths), so a match is only a candidate to confirm from the transcript.
 */
export function subfolderPrefix(cwd: string): string {
  return `${sanitizeCwd(cwd).slice(0, MAX_FOLDER_NAME)}-`;
}
