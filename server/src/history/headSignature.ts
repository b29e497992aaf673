import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

function stamp(file: string): string {
  try {
    const info = statSync(file);
    return `${info.ino}:${info.size}:${info.mtimeMs}`;
  } catch {
    return '-';
  }
}

function headText(gitDir: string): string {
  try {
    return readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * What changes whenever HEAD may name another commit: a commit, a pull, a checkout, a rebase, a
 * reset. HEAD itself (a branch, or a commit when detached), the branch's ref file, the packed refs
 * (a ref git packed), and the reftable list where refs are kept that way: a few stats, cheap to
 * poll, the same on every platform and file system. A change says "look", not "new commits".
 */
export function headSignature(folders: { readonly gitDir: string; readonly commonDir: string }): string {
  const head = headText(folders.gitDir);
  const ref = head.startsWith('ref: ') ? head.slice(5) : null;
  return [
    head,
    ref ? stamp(path.join(folders.commonDir, ref)) : '',
    stamp(path.join(folders.commonDir, 'packed-refs')),
    stamp(path.join(folders.commonDir, 'reftable', 'tables.list')),
  ].join('|');
}
