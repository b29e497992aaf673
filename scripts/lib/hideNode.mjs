// "Nothing installed but the VSIX": a PATH with every program of the given one but `node`, as a
// folder of links to them, so that what runs with it has no Node.js to find — as on a machine
// without one. No root or namespaces needed (they fail in a chroot).
import { mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const HIDDEN = new Set(['node', 'nodejs']);

/** Fills `dir` with links to each program on `env.PATH` (the first of each name) but node; returns the PATH to use. */
export function pathWithoutNode(dir, env = process.env) {
  mkdirSync(dir, { recursive: true });
  const linked = new Set(HIDDEN);
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    let names;
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      if (linked.has(name)) continue;
      const target = join(folder, name);
      try {
        if (statSync(target).isDirectory()) continue;
      } catch {
        continue;
      }
      symlinkSync(target, join(dir, name));
      linked.add(name);
    }
  }
  return dir;
}
