import * as vscode from 'vscode';
import { registerClaudeCode } from './claude';
import { registerCommands } from './commands';
import { registerMcpServerDefinitions } from './mcp/mcpServerDefinitions';
import { MemoryServer } from './server/memoryServer';
import { MemoryStatusItem } from './statusBar';
import { registerMemoryViews } from './views';

let server: MemoryServer | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Engram', { log: true });
  const status = new MemoryStatusItem();
  server = new MemoryServer(context, log, status);
  context.subscriptions.push(log, status, server);
  registerCommands(context, server, log);
  registerMcpServerDefinitions(context, server, log);
  registerClaudeCode(context, server);
  registerMemoryViews(context, server, log);
  // The server starts in the background: activation itself does no heavy work.
  void server.start();
  log.info(`Engram activated in ${(performance.now() - started).toFixed(1)} ms`);
}

export async function deactivate(): Promise<void> {
  await server?.stop();
}
