// "Nothing installed but the VSIX": runs a command with every `node` on PATH hidden, in a private
// mount namespace (root only; /dev/null bound over each), so what it starts must make do without.
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The real files of every `node` on PATH. */
export function nodesOnPath(env = process.env) {
  const found = new Set();
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const candidate = dir && join(dir, 'node');
    if (candidate && existsSync(candidate)) found.add(realpathSync(candidate));
  }
  return [...found];
}

/** [command, args] that run `command args` with no `node` on PATH; throws where that cannot be arranged. */
export function withoutNode(command, args, env = process.env) {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) throw new Error('hiding node needs Linux and root (a mount namespace)');
  const script = 'for f in "$@"; do [ "$f" = -- ] && break; mount --bind /dev/null "$f" || exit 125; done; while [ "$1" != -- ]; do shift; done; shift; exec "$@"';
  return ['unshare', ['-m', '--propagation', 'private', '/bin/sh', '-c', script, 'sh', ...nodesOnPath(env), '--', command, ...args]];
}
