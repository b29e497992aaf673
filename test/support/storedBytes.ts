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
  const leaks: Leak[] = [];
  for (const file of files) {
    const bytes = readFileSync(file);
    for (const c of cases) {
      if (c.secret === null) continue;
      const fragment = secretFragments(c.secret).find((f) => bytes.includes(f));
      if (fragment !== undefined) leaks.push({ id: c.id, file, fragment });
    }
  }
  return leaks;
}
