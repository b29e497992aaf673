import * as vscode from 'vscode';
import { Commands, GetMemoriesRequest, SetPinRequest } from '../../contracts/protocol';
import { pinSelection } from './pinSelection';
import { importGitHistory } from './server/historyImport';
import type { MemoryServer } from './server/memoryServer';
import { StatsPanel } from './views/statsPanel';

export function registerCommands(context: vscode.ExtensionContext, server: MemoryServer, log: vscode.LogOutputChannel): void {
  const needClient = () => {
    const client = server.languageClient;
    if (!client) void vscode.window.showWarningMessage(`Engram: ${server.unavailableReason}.`, 'Show Log').then((c) => c && log.show());
    return client;
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(Commands.showStats, () => StatsPanel.show(context.extensionUri, server, log)),

    vscode.commands.registerCommand(Commands.pinSelection, () => pinSelection(server)),

    // From a hover link: unpin, with a way back.
    vscode.commands.registerCommand(Commands.unpin, async (uri: string, id: string) => {
      const client = needClient();
      if (!client || typeof id !== 'string') return;
      const before = (await client.sendRequest(GetMemoriesRequest.type, { uri, ids: [id] }))[0];
      const memory = await client.sendRequest(SetPinRequest.type, { uri, id, pin: 'none' });
      if (!memory || !before) return;
      const choice = await vscode.window.showInformationMessage(`Engram: unpinned "${memory.title}".`, 'Undo');
      if (choice) await client.sendRequest(SetPinRequest.type, { uri, id, pin: before.pin });
    }),

    // From a hover link: accept a rule candidate, as pinning it in the panel does (engram/setPin).
    vscode.commands.registerCommand(Commands.acceptRule, async (uri: string, id: string) => {
      const client = needClient();
      if (!client || typeof id !== 'string') return;
      const memory = await client.sendRequest(SetPinRequest.type, { uri, id, pin: 'soft' });
      if (memory) void vscode.window.showInformationMessage(`Engram: accepted "${memory.title}" as a rule; agents are given it from now on.`);
    }),

    vscode.commands.registerCommand(Commands.importHistory, async () => {
      const client = needClient();
      if (client) await importGitHistory(client);
    }),

    vscode.commands.registerCommand(Commands.restartServer, async () => {
      log.info('Restarting the memory server on request.');
      await server.restart();
    }),

    // Commands.showMemories (CodeLenses, hover links) opens the memory panel: client/src/views/showMemories.ts.
  );
}
