import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Project } from '../project';
import { createEngramMcpServer } from './engramMcpServer';
import { screenedInput } from './screenedInput';
import { CallTracker } from './toolContext';

/** How long calls in flight may take to finish once the client has gone. */
const SETTLE_MS = 5000;

export interface StdioOptions {
  readonly log: (message: string) => void;
  readonly sessionId: string | null;
}

/**
 * Serves one project over stdin/stdout until the client goes away (stdin ends, the connection
 * closes, SIGTERM/SIGINT). Calls in flight finish before the database closes; every write is one
 * transaction, so a client that leaves mid-call leaves either the whole memory or none of it.
 * Resolves with the exit code.
 */
export async function serveStdio(project: Project, options: StdioOptions): Promise<number> {
  const { log } = options;
  const calls = new CallTracker();
  const server = createEngramMcpServer(project, { log, sessionId: options.sessionId, calls });
  // Requests the SDK would drop or call internal errors are answered before it reads them (requestScreen.ts).
  const transport: StdioServerTransport = new StdioServerTransport(
    screenedInput(process.stdin, (error) => void transport.send(error).catch((failure: Error) => log(`cannot answer a malformed request: ${failure.message}`))),
    process.stdout,
  );
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  let closing = false;

  const shutdown = async (reason: string) => {
    if (closing) return;
    closing = true;
    log(`${reason}; closing ${project.databaseFile}`);
    // Writes are synchronous transactions, so what is still awaited is a read (recall parsing a file).
    await Promise.race([calls.settled(), new Promise((resolve) => setTimeout(resolve, SETTLE_MS).unref())]);
    try {
      await server.close();
    } catch (error) {
      log(`closing the connection: ${(error as Error).message}`);
    }
    project.close();
    process.stdin.destroy();
    finish(0);
  };

  server.server.onerror = (error) => log(`protocol error: ${error.message}`);
  server.server.onclose = () => void shutdown('the client closed the connection');
  process.stdin.once('end', () => void shutdown('stdin ended'));
  // A client gone before our answer is written: the write fails, the memory is already committed.
  process.stdout.on('error', (error) => void shutdown(`cannot write to the client (${error.message})`));
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void shutdown(signal));

  await server.connect(transport);
  log(`serving the memory of ${project.root} over stdio (database ${project.databaseFile})`);
  return finished;
}
