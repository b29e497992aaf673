import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { secretFragments, type SecretCase } from './secretCorpus';

/** Every file under `folder`, recursively: the database, its WAL, logs, config, whatever Engram wrote. */
export function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

export interface Leak {
  readonly id: string;
  readonly file: string;
  readonly fragment: string;
}

/** Each secret case whose value, or a telling fragment of it (secretFragments), is in the raw bytes of a file. */
export function leaksIn(files: readonly string[], cases: readonly SecretCase[]): Leak[] {
  const searched = cases.filter((c) => c.secret !== null).map((c) => ({ id: c.id, fragments: secretFragments(c.secret!).map((f) => Buffer.from(f, 'utf8')) }));
  const index = new FragmentIndex(searched.flatMap((c) => c.fragments));
  const leaks: Leak[] = [];
  for (const file of files) {
    const found = index.foundIn(readFileSync(file));
    for (const c of searched) {
      const fragment = c.fragments.find((f) => found.has(f));
      if (fragment !== undefined) leaks.push({ id: c.id, file, fragment: fragment.toString('utf8') });
    }
  }
  return leaks;
}

/**
 * Many fragments looked for in one pass over a file's bytes: each fragment filed under its first
 * four bytes, each position of the file looked up once (searching for ~20,000 fragments one by one
 * read a store's bytes ~20,000 times).
 */
class FragmentIndex {
  private readonly byPrefix = new Map<number, Buffer[]>();
  private readonly short: Buffer[] = [];

  constructor(fragments: readonly Buffer[]) {
    for (const fragment of fragments) {
      if (fragment.length < 4) {
        this.short.push(fragment);
        continue;
      }
      const key = fragment.readUInt32LE(0);
      const list = this.byPrefix.get(key);
      if (list) list.push(fragment);
      else this.byPrefix.set(key, [fragment]);
    }
  }

  foundIn(bytes: Buffer): Set<Buffer> {
    const found = new Set<Buffer>(this.short.filter((f) => bytes.includes(f)));
    for (let at = 0; at + 4 <= bytes.length; at++) {
      const candidates = this.byPrefix.get(bytes.readUInt32LE(at));
      if (!candidates) continue;
      for (const fragment of candidates) {
        if (!found.has(fragment) && at + fragment.length <= bytes.length && bytes.compare(fragment, 0, fragment.length, at, at + fragment.length) === 0) found.add(fragment);
      }
    }
    return found;
  }
}
