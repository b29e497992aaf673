import type { SocketReply, SocketRequest } from './socketProtocol';

const MAX_REPLY_CHARS = 64 * 1024 * 1024;

function parseReply(line: string): SocketReply | null {
  try {
    const reply = JSON.parse(line) as SocketReply;
    if (reply.handled === true && typeof reply.stdout === 'string' && typeof reply.stderr === 'string' && Number.isInteger(reply.exitCode)) return reply;
    if (reply.handled === false) return reply;
  } catch {
    // Not a reply: the caller runs the command itself.
  }
  return null;
}

/**
 * Asks the memory server to run a command. Resolves to null — never rejects — when there is no
 * server, it is not answering within `timeoutMs`, or its reply is not one: the caller then runs
 * the command itself. Only node:net, so that asking costs a few milliseconds.
 */
export function askMemoryServer(socketPath: string, request: SocketRequest, timeoutMs: number): Promise<SocketReply | null> {
  // Required on use: every other command of the `engram` entry would pay for loading node:net.
  const { connect } = require('node:net') as typeof import('node:net');
  return new Promise((resolve) => {
    let buffer = '';
    let settled = false;
    const socket = connect(socketPath);
    const finish = (reply: SocketReply | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(reply);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end >= 0) finish(parseReply(buffer.slice(0, end)));
      else if (buffer.length > MAX_REPLY_CHARS) finish(null);
    });
    socket.on('error', () => finish(null));
    socket.on('close', () => finish(null));
  });
}
