import path from 'node:path';
import { parseOpeningFiles } from '../symbols/openingDeclarations';

/** `engram lsp --warm`'s list: the files the editor shows as it starts the server, by absolute path (others are left out). */
export function warmList(value: string | undefined): string[] {
  return (value?.split(',') ?? []).filter((file) => path.isAbsolute(file));
}

/**
 * Started by the `engram` entry before it loads a command's bundle (the server's takes ~150–400
 * ms): the memory server's parse of the files the editor shows, in a process of its own, so the
 * first hover finds them parsed.
 */
export function startBeforeBundle(command: string, rest: readonly string[]): void {
  if (command !== 'lsp') return;
  const at = rest.findIndex((arg) => arg === '--warm' || arg.startsWith('--warm='));
  if (at < 0) return;
  const value = rest[at] === '--warm' ? rest[at + 1] : rest[at]!.slice('--warm='.length);
  parseOpeningFiles(warmList(value));
}
