import { chmodSync, lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import type { SocketReply, SocketRequest } from './socketProtocol';
import { socketRequestSchema } from './socketRequest';

/** A hook's stdin is capped at 8 MB (commands/hook.ts); JSON escaping can double it. */
const MAX_REQUEST_CHARS = 20 * 1024 * 1024;
/** A caller that connects and sends nothing is dropped. */
const IDLE_MS = 5000;

export interface SocketListener {
  close(): void;
}

function reply(socket: Socket, answer: SocketReply): void {
  if (!socket.destroyed) socket.end(`${JSON.stringify(answer)}\n`);
}

function parseRequest(line: string): SocketRequest | string {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  const parsed = socketRequestSchema.safeParse(json);
  return parsed.success ? parsed.data : parsed.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ');
}

/**
 * Listens on the window's socket (socketPath.ts) and answers each request with `handle`. The
 * socket's folder is private to the user (0700). A request that is not one gets a clear
 * "not handled" reply, and the server goes on.
 */
export function listenOnSocket(socketPath: string, handle: (request: SocketRequest) => Promise<SocketReply>, log: { info(m: string): void; warn(m: string): void }): SocketListener {
  const isPipe = socketPath.startsWith('\\\\');
  if (!isPipe) {
    const folder = path.dirname(socketPath);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    // The folder may be in the shared temp directory: it must be this user's own, not a link.
    const stat = lstatSync(folder);
    if (!stat.isDirectory() || (typeof process.getuid === 'function' && stat.uid !== process.getuid())) {
      throw new Error(`${folder} is not a folder of this user's own`);
    }
    chmodSync(folder, 0o700);
    // The path is this window's own: a file there is left over from a server that died.
    try {
      unlinkSync(socketPath);
    } catch {
      // None.
    }
  }
  const server: Server = createServer((socket) => {
    let buffer = '';
    let answered = false;
    socket.setEncoding('utf8');
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      if (answered) return;
      buffer += chunk;
      if (buffer.length > MAX_REQUEST_CHARS) {
        answered = true;
        reply(socket, { handled: false, reason: `request longer than ${MAX_REQUEST_CHARS} characters` });
        return;
      }
      const end = buffer.indexOf('\n');
      if (end < 0) return;
      answered = true;
      const request = parseRequest(buffer.slice(0, end));
      socket.pause();
      if (typeof request === 'string') {
        log.warn(`Socket: a bad request: ${request}`);
        reply(socket, { handled: false, reason: `bad request: ${request}` });
        return;
      }
      handle(request).then(
        (answer) => reply(socket, answer),
        (error: unknown) => {
          log.warn(`Socket: engram ${request.argv.join(' ').slice(0, 200)} failed: ${(error as Error).stack ?? String(error)}`);
          reply(socket, { handled: false, reason: `failed in the memory server: ${(error as Error).message}` });
        },
      );
    });
  });
  server.on('error', (error) => log.warn(`Socket ${socketPath}: ${error.message}; hooks and \`engram recall\` start their own process instead.`));
  server.listen(socketPath, () => log.info(`Answering hooks and \`engram recall\` on ${socketPath}.`));
  return {
    close() {
      server.close();
      if (!isPipe) {
        try {
          unlinkSync(socketPath);
        } catch {
          // Already gone.
        }
      }
    },
  };
}
