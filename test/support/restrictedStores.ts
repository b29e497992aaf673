import { spawnSync } from 'node:child_process';
import { chownSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Permissions do not stop root, and the tests may run as root: then the commands whose
 * permissions matter run as `nobody` (undefined: as the tests' own user, whom they do stop).
 */
export const UNPRIVILEGED: { uid: number; gid: number } | undefined = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;

/** Gives folders, and all in them, to the user UNPRIVILEGED commands run as (nothing to do when that is the tests' own). */
export function handOver(...folders: string[]): void {
  if (!UNPRIVILEGED) return;
  const give = (file: string) => {
    chownSync(file, UNPRIVILEGED.uid, UNPRIVILEGED.gid);
    if (lstatSync(file).isDirectory()) for (const name of readdirSync(file)) give(path.join(file, name));
  };
  for (const folder of folders) give(folder);
}

/**
 * The command that runs a shell script in a private mount namespace, where it may mount a small
 * file system that no one else sees and that goes away with it: `unshare -m` as root, else in a
 * user namespace of its own (`unshare -rm`), where the system allows those.
 */
export function mountNamespace(): { readonly argv: readonly string[] } | { readonly unavailable: string } {
  for (const argv of [['unshare', '--mount', '--propagation', 'private'], ['unshare', '--map-root-user', '--mount', '--propagation', 'private']]) {
    const probe = spawnSync(argv[0]!, [...argv.slice(1), 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt 2>/dev/null || mount -t tmpfs -o size=64k tmpfs /tmp'], { encoding: 'utf8' });
    if (probe.status === 0) return { argv };
  }
  return { unavailable: 'mounting a small tmpfs needs a private mount namespace (unshare -m as root, or unprivileged user namespaces), which this machine does not allow' };
}
