import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ENGRAM_JS, assertBuilt } from './engramProcess';

/** A real `engram mcp` process and an MCP SDK client connected to it over stdio. */
export interface McpSession {
  readonly client: Client;
  readonly stderr: () => string;
  /** Errors the client's transport saw, e.g. a line on stdout that is not a protocol message. */
  readonly transportErrors: readonly Error[];
  readonly pid: number | null;
  /** Calls a tool; the result as the server sent it (isError results included, never thrown). */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** `project` becomes `--project`; without it the server finds its project as it would when an agent starts it. */
export async function startMcp(options: { env: NodeJS.ProcessEnv; project?: string; cwd?: string; name?: string }): Promise<McpSession> {
  assertBuilt();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [ENGRAM_JS, 'mcp', ...(options.project === undefined ? [] : ['--project', options.project])],
    cwd: options.cwd,
    env: Object.fromEntries(Object.entries(options.env).filter((e): e is [string, string] => e[1] !== undefined)),
    stderr: 'pipe',
  });
  let stderr = '';
  // With stderr: 'pipe' the transport exposes the child's stderr stream before it starts.
  const stream = transport.stderr as Readable | null;
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => (stderr += chunk));
  const transportErrors: Error[] = [];
  const client = new Client({ name: options.name ?? 'engram-test', version: '1.0.0' });
  client.onerror = (error) => transportErrors.push(error);
  try {
    await client.connect(transport);
  } catch (error) {
    // A server that died at start says why on its stderr: keep it, and leave no process behind.
    await transport.close().catch(() => undefined);
    throw new Error(`engram mcp did not start: ${(error as Error).message}${stderr ? `\n${stderr}` : ''}`);
  }
  return {
    client,
    stderr: () => stderr,
    transportErrors,
    pid: transport.pid,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of a tool result's first content block. */
export function resultText(result: CallToolResult): string {
  const first = result.content[0];
  return first && first.type === 'text' ? first.text : '';
}
