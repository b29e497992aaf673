import { askMemoryServer } from '../socket/socketClient';
import { FORWARDED_ENV_NAMES, servedByMemoryServer, type SocketRequest } from '../socket/socketProtocol';
import type { CliIO } from './command';
import { readStdin } from './readStdin';

/** A hook waits this long for the server before running itself, within its 2 s limit. */
const HOOK_SERVER_WAIT_MS = 1000;
/** Stdin of a hook, read before asking (the default hook limit; `engram hook` applies the configured one). */
const HOOK_STDIN_MS = 2000;
const COMMAND_SERVER_WAIT_MS = 5000;

export type ViaServer =
  /** The server ran it: this is the exit code, its output is written. */
  | { readonly ran: true; readonly exitCode: number }
  /** Run it here, with what was already read. */
  | { readonly ran: false; readonly io: CliIO };

/**
 * `engram hook session-start|user-prompt-submit` and `engram recall`, in a terminal of a VS Code
 * window with Engram (ENGRAM_SOCKET), are answered by that window's memory server, which has the
 * project open and its caches warm: the process only forwards its arguments and stdin and prints
 * the answer. Without a server, or when it does not answer in time, the command runs here as
 * always. Loads node:net and nothing else.
 */
export async function viaMemoryServer(argv: readonly string[], io: CliIO): Promise<ViaServer> {
  const socket = io.env.ENGRAM_SOCKET;
  if (!socket || !servedByMemoryServer(argv)) return { ran: false, io };
  const startedAt = Date.now();
  const isHook = argv[0] === 'hook';
  const stdin = isHook ? await readStdin(HOOK_STDIN_MS) : undefined;
  const local: ViaServer = { ran: false, io: { ...io, startedAt, ...(stdin ? { stdin } : {}) } };
  if (stdin && !stdin.ended) return local;
  const env: SocketRequest['env'] = {};
  for (const name of FORWARDED_ENV_NAMES) if (io.env[name] !== undefined) env[name] = io.env[name];
  const request: SocketRequest = { argv: [...argv], cwd: io.cwd, env, ...(stdin ? { stdin: stdin.text } : {}) };
  const reply = await askMemoryServer(socket, request, isHook ? HOOK_SERVER_WAIT_MS : COMMAND_SERVER_WAIT_MS);
  if (!reply?.handled) return local;
  if (reply.stdout) io.out(reply.stdout);
  if (reply.stderr) io.err(reply.stderr);
  return { ran: true, exitCode: reply.exitCode };
}
