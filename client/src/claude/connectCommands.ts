import * as vscode from 'vscode';
import { ClaudeConnectionRequest, Commands, ConnectClaudeRequest, DisconnectClaudeRequest, InjectionsRequest, type AgentSessionActivity } from '../../../contracts/protocol';
import type { MemoryServer } from '../server/memoryServer';

const NEVER_OFFER_KEY = 'engram.neverOfferClaudeConnect';

function folderUri(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.toString();
}

async function connect(server: MemoryServer): Promise<void> {
  const client = server.languageClient;
  if (!client) {
    void vscode.window.showErrorMessage(`Engram cannot connect Claude Code: ${server.unavailableReason}.`);
    return;
  }
  const scope = await vscode.window.showQuickPick(
    [
      { label: '$(person) Just me', description: 'hooks in .claude/settings.local.json, MCP server in your Claude Code settings (recommended)', share: false },
      { label: '$(organization) Share the MCP server with the team', description: 'also writes .mcp.json into the project (commit it to share)', share: true },
    ],
    { title: 'Connect Claude Code to Engram' },
  );
  if (!scope) return;
  try {
    const result = await client.sendRequest(ConnectClaudeRequest.type, { uri: folderUri(), share: scope.share });
    const backups = result.backups.length ? ` Backups of the changed settings are in ${result.backups.map((b) => b.replace(/\/[^/]*$/, '')).filter((v, i, a) => a.indexOf(v) === i).join(', ')}.` : '';
    void vscode.window.showInformationMessage(
      result.changed.length
        ? `Engram: Claude Code is connected in ${result.projectRoot} — it gets your pinned constraints and relevant memories from its next session.${backups}`
        : 'Engram: Claude Code was already connected.',
    );
  } catch (error) {
    void vscode.window.showErrorMessage(`Engram could not connect Claude Code: ${(error as Error).message}`);
  }
}

async function disconnect(server: MemoryServer): Promise<void> {
  const client = server.languageClient;
  if (!client) return;
  try {
    const result = await client.sendRequest(DisconnectClaudeRequest.type, { uri: folderUri() });
    void vscode.window.showInformationMessage(result.changed.length ? `Engram: removed its hooks and MCP server from ${result.changed.join(', ')}.` : 'Engram: Claude Code was not connected.');
  } catch (error) {
    void vscode.window.showErrorMessage(`Engram could not disconnect Claude Code: ${(error as Error).message}`);
  }
}

/**
 * When Claude Code starts in an integrated terminal of a project that is not connected, offer
 * once to connect it (never again after "Don't Ask Again", not again this window after "Not Now").
 */
/** The part of VS Code ≥ 1.93's shell integration API used here (declared so older VS Code just skips it). */
interface ShellExecutionApi {
  onDidStartTerminalShellExecution?: vscode.Event<{ readonly execution: { readonly commandLine: { readonly value: string } } }>;
}

function offerWhenClaudeStarts(context: vscode.ExtensionContext, server: MemoryServer): vscode.Disposable {
  let offeredThisWindow = false;
  const onStart = (vscode.window as unknown as ShellExecutionApi).onDidStartTerminalShellExecution;
  if (!onStart) return new vscode.Disposable(() => undefined);
  return onStart(async (event) => {
    if (offeredThisWindow || context.workspaceState.get<boolean>(NEVER_OFFER_KEY)) return;
    if (!/^\s*(?:\S*\/)?claude(?:\s|$)/.test(event.execution.commandLine.value)) return;
    const client = server.languageClient;
    if (!client) return;
    const state = await client.sendRequest(ClaudeConnectionRequest.type, { uri: folderUri() }).catch(() => null);
    if (!state || state.connected) return;
    offeredThisWindow = true;
    const choice = await vscode.window.showInformationMessage(
      'Claude Code started in this project. Connect it to Engram, so it gets your pinned constraints and relevant memories at every prompt and after compaction?',
      'Connect',
      'Not Now',
      "Don't Ask Again",
    );
    if (choice === 'Connect') await connect(server);
    if (choice === "Don't Ask Again") await context.workspaceState.update(NEVER_OFFER_KEY, true);
  });
}

async function showInjections(server: MemoryServer, session: AgentSessionActivity | undefined): Promise<void> {
  const client = server.languageClient;
  if (!client || !session) return;
  const entries = await client.sendRequest(InjectionsRequest.type, { sessionId: session.sessionId, projectRoot: session.projectRoot });
  await vscode.window.showQuickPick(
    entries.map((e) => ({
      label: `${e.memory?.pin === 'hard' ? '$(lock)' : '$(note)'} ${e.memory?.title ?? e.memoryId}`,
      description: `${e.event} · ${e.tokens} tokens · ${new Date(e.createdAt).toLocaleTimeString()}`,
      detail: e.memory?.why ?? undefined,
    })),
    { title: `What Engram gave Claude Code (session ${session.sessionId.slice(0, 8)})`, matchOnDescription: true },
  );
}

export function registerClaudeCommands(context: vscode.ExtensionContext, server: MemoryServer, latestSession: () => AgentSessionActivity | undefined): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(Commands.connectClaude, () => connect(server)),
    vscode.commands.registerCommand(Commands.disconnectClaude, () => disconnect(server)),
    vscode.commands.registerCommand(Commands.showInjections, () => showInjections(server, latestSession())),
    offerWhenClaudeStarts(context, server),
  );
}
