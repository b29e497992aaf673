import type picomatchModule from 'picomatch';

type Picomatch = typeof picomatchModule;
let loaded: Picomatch | undefined;

/**
 * picomatch, loaded on first use: a hook or a CLI command that meets no glob must not evaluate
 * it at startup.
 */
export function globMatcher(glob: string | string[], options?: picomatchModule.PicomatchOptions): picomatchModule.Matcher {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  loaded ??= require('picomatch') as Picomatch;
  return loaded(glob, options);
}
