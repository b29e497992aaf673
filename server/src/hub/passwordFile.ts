import { readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What a password file line is matched against (libpq's fields). */
export interface PasswordFor {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
}

/** A line's fields, `\:` and `\\` unescaped. */
function fields(line: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length) current += line[++i];
    else if (c === ':') {
      out.push(current);
      current = '';
    } else current += c;
  }
  out.push(current);
  return out;
}

/**
 * The password for a connection from the PostgreSQL password file, as libpq reads it: PGPASSFILE
 * or ~/.pgpass, `host:port:database:user:password` lines, `*` matching anything, the first match
 * winning; a file others may read is ignored (libpq's rule). Read at connect time, never kept.
 */
export function passwordFromFile(target: PasswordFor, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = env.PGPASSFILE || (process.platform === 'win32' ? path.join(env.APPDATA ?? '', 'postgresql', 'pgpass.conf') : path.join(env.HOME ?? os.homedir(), '.pgpass'));
  let text: string;
  try {
    if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) return undefined;
    text = readFileSync(file, 'utf8');
  } catch {
    // No password file: the server may not need a password, or it comes from elsewhere.
    return undefined;
  }
  const wanted = [target.host, String(target.port), target.database, target.user];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim() || line.startsWith('#')) continue;
    const parts = fields(line);
    if (parts.length < 5) continue;
    if (wanted.every((value, i) => parts[i] === '*' || parts[i] === value)) return parts.slice(4).join(':');
  }
  return undefined;
}
