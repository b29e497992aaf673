import type { z } from 'zod';
import type { socketRequestSchema } from './socketRequest';

/**
 * The memory server's socket (docs/architecture.md, "Commands the server answers"): one line of
 * JSON in, one line of JSON out, then the connection closes. Type-only imports here: the
 * `engram` entry uses these types without loading zod.
 */
export type SocketRequest = z.infer<typeof socketRequestSchema>;

/** Environment variables a command run by the memory server takes from its caller; the rest are the server's. */
export const FORWARDED_ENV_NAMES = ['ENGRAM_WINDOW', 'ENGRAM_PROJECT', 'CLAUDE_PROJECT_DIR'] as const;

export type SocketReply =
  | { readonly handled: true; readonly stdout: string; readonly stderr: string; readonly exitCode: number }
  /** Not for this server (another project, a command it does not run): the caller runs it itself. */
  | { readonly handled: false; readonly reason: string };

/** Context hooks and `engram recall`: reads that run on every prompt, where starting a process costs more than the work. */
export function servedByMemoryServer(argv: readonly string[]): boolean {
  if (argv[0] === 'hook') return argv.length === 2 && (argv[1] === 'session-start' || argv[1] === 'user-prompt-submit');
  // `--batch -` reads the caller's stdin, which stays with the caller.
  return argv[0] === 'recall' && !argv.some((a) => a === '--batch' || a.startsWith('--batch=') || a === '--help' || a === '-h');
}
