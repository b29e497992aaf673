import path from 'node:path';

/**
 * How one platform spells and compares paths. Code that decides whether two paths are one
 * project or one file takes it as a parameter, so Windows and macOS are tested on any machine.
 * Made only by `platformPaths`, so the path module always matches the platform.
 */
export interface PlatformPaths {
  readonly platform: NodeJS.Platform;
  /** `path.win32` on Windows (drive letters, `\`, UNC), `path.posix` elsewhere. */
  readonly path: path.PlatformPath;
  /** `Repo` and `repo` name one folder: the default on macOS (APFS, HFS+) and Windows (NTFS). */
  readonly caseInsensitive: boolean;
}

export function platformPaths(platform: NodeJS.Platform): PlatformPaths {
  return Object.freeze({
    platform,
    path: platform === 'win32' ? path.win32 : path.posix,
    caseInsensitive: platform === 'win32' || platform === 'darwin',
  });
}

/** The platform this process runs on: what every caller but a test wants. */
export const hostPaths: PlatformPaths = platformPaths(process.platform);
