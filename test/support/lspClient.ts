import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { MEMORY_SERVER_NODE_FLAGS, memoryServerEnv } from '../../server/src/runtime/memoryServerFlags';
import { ENGRAM_JS, assertBuilt } from './engramProcess';

/** A real `engram lsp --stdio` process and a vscode-jsonrpc connection to it. */
export interface LspSession {
  readonly process: ChildProcess;
  readonly connection: MessageConnection;
  readonly stderr: () => string;
  /** Requests and notifications the server sent us, by method. */
  readonly received: Map<string, unknown[]>;
  waitFor(method: string, predicate?: (params: unknown) => boolean, timeoutMs?: number): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * `answer`: what the client replies to requests from the server (default: null to every one, as a
 * client that asks nobody). `nodeFlags`: Node's flags for the server (default: the extension's);
 * its environment is `env` with what the extension adds (memoryServerEnv).
 * `lspArgs`: more of `engram lsp`'s arguments (`--warm`, as the extension passes it).
 */
export function startLsp(env: NodeJS.ProcessEnv, options: { answer?: (method: string, params: unknown) => unknown; nodeFlags?: readonly string[]; lspArgs?: readonly string[] } = {}): LspSession {
  assertBuilt();
  const child = spawn(process.execPath, [...(options.nodeFlags ?? MEMORY_SERVER_NODE_FLAGS), ENGRAM_JS, 'lsp', '--stdio', ...(options.lspArgs ?? [])], { env: { ...env, ...memoryServerEnv(env) }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const received = new Map<string, unknown[]>();
  const waiters: { method: string; predicate: (p: unknown) => boolean; resolve: (p: unknown) => void }[] = [];
  const record = (method: string, params: unknown) => {
    received.set(method, [...(received.get(method) ?? []), params]);
    for (const waiter of [...waiters]) {
      if (waiter.method === method && waiter.predicate(params)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(params);
      }
    }
  };
  connection.onNotification((method, params) => record(method, params));
  connection.onRequest((method, params) => {
    record(method, params);
    return options.answer?.(method, params) ?? null;
  });
  connection.listen();
  return {
    process: child,
    connection,
    stderr: () => stderr,
    received,
    waitFor(method, predicate = () => true, timeoutMs = 10_000) {
      const already = (received.get(method) ?? []).find(predicate);
      if (already !== undefined) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${method} within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
        waiters.push({ method, predicate, resolve: (p) => (clearTimeout(timer), resolve(p)) });
      });
    },
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        try {
          await connection.sendRequest('shutdown');
          await connection.sendNotification('exit');
        } catch (error) {
          // The connection is already broken (the test killed or crashed the server): make sure it is gone.
          void error;
          child.kill('SIGKILL');
        }
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      connection.dispose();
    },
  };
}

/**
 * A real server for one workspace folder that answers hooks and `engram recall` in `mailbox`, as
 * in a VS Code window; resolves once its log says `ready` (by default: it takes requests).
 */
export async function startLspWithMailbox(
  env: NodeJS.ProcessEnv,
  root: string,
  mailbox: string,
  options: { windowId?: string; ready?: RegExp; timeoutMs?: number; settings?: Record<string, unknown> } = {},
): Promise<LspSession> {
  const lsp = startLsp(env);
  await lsp.connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: path.basename(root) }],
    capabilities: {},
    initializationOptions: { ...options.settings, windowId: options.windowId ?? 'test-window', mailbox },
  });
  await lsp.connection.sendNotification('initialized', {});
  const ready = options.ready ?? /^Answering hooks/;
  await lsp.waitFor('window/logMessage', (p) => ready.test((p as { message: string }).message), options.timeoutMs);
  return lsp;
}
