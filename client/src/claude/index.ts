import * as vscode from 'vscode';
import type { AgentSessionActivity } from '../../../contracts/protocol';
import type { MemoryServer } from '../server/memoryServer';
import { AgentSessionItem } from './agentSessionItem';
import { registerClaudeCommands } from './connectCommands';
import { followEditorState } from './editorState';
import { windowMailbox } from '../server/windowMailbox';

/**
 * Everything for Claude Code in the integrated terminal: the environment its hooks see (which
 * Engram data folder, project and window), the editor state they read, connect / disconnect,
 * the offer to connect, and the live session in the status bar.
 */
export function registerClaudeCode(context: vscode.ExtensionContext, server: MemoryServer): void {
  const env = context.environmentVariableCollection;
  env.description = 'Tells Claude Code hooks which Engram project, data folder, VS Code window and memory server they belong to.';
  env.replace('ENGRAM_WINDOW', vscode.env.sessionId);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (folder) env.replace('ENGRAM_PROJECT', folder);
  if (process.env.ENGRAM_HOME) env.replace('ENGRAM_HOME', process.env.ENGRAM_HOME);
  // Context hooks and `engram recall` ask this window's memory server first (docs/architecture.md).
  env.replace('ENGRAM_MAILBOX', windowMailbox());
  // Set by Engram 0.1 before the mailbox; a collection persists across updates.
  env.delete('ENGRAM_SOCKET');

  const item = new AgentSessionItem();
  let latest: AgentSessionActivity | undefined;
  context.subscriptions.push(
    item,
    followEditorState(server),
    server.onDidChangeAgentSession((session) => {
      latest = session ?? undefined;
      item.show(session);
    }),
  );
  registerClaudeCommands(context, server, () => latest);
}
