import path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { CancelHistoryImportNotification, HistoryOfferRequest, HistoryProgressNotification, ImportHistoryRequest } from '../../../contracts/protocol';
import { ProgressNotifications } from './progressNotifications';

const count = (n: number) => n.toLocaleString('en');

/**
 * The git history as memories, on the client's side: the one-time offer the server makes at the
 * first start in a project, and the import's progress as a cancellable notification. The server
 * does the work (server/src/lsp/historyFollower.ts).
 */
export function followHistoryImport(client: LanguageClient): vscode.Disposable {
  const notifications = new ProgressNotifications();
  const offer = client.onRequest(HistoryOfferRequest.type, async (params) => {
    const choice = await vscode.window.showInformationMessage(
      `Engram: import ${count(params.commits)} commits of ${path.basename(params.projectRoot)}'s git history as memories?`,
      { detail: 'Each change becomes a memory of the code it touched, with the commit message as its why. Asked once; "Engram: Import Git History" does it later.' },
      'Import',
      'No',
    );
    return { answer: choice === 'Import' ? 'import' : 'decline' };
  });
  const progress = client.onNotification(HistoryProgressNotification.type, (params) => {
    if (params.state === 'begin') {
      notifications.begin(params.id, `Engram: importing the git history of ${path.basename(params.projectRoot)}`, `${count(params.commits)} commits`, () =>
        void client.sendNotification(CancelHistoryImportNotification.type, { id: params.id }),
      );
      return;
    }
    if (params.state === 'report') {
      notifications.report(params.id, params.done, params.commits, `${count(params.done)} of ${count(params.commits)} commits, ${count(params.memories)} memories`);
      return;
    }
    notifications.end(params.id);
    if (params.error) void vscode.window.showWarningMessage(`Engram could not import the git history: ${params.error}`);
    else if (params.cancelled) {
      void vscode.window
        .showInformationMessage(`Engram stopped importing the git history after ${count(params.done)} commits. It goes on where it stopped at the next start.`, 'Resume Now')
        .then((choice) => {
          if (choice) void importGitHistory(client);
        });
    }
  });
  return vscode.Disposable.from(offer, progress);
}

/** "Engram: Import Git History": what is not imported yet, for the active editor's project (or the first). */
export async function importGitHistory(client: LanguageClient): Promise<void> {
  const uri = vscode.window.activeTextEditor?.document.uri.toString() ?? vscode.workspace.workspaceFolders?.[0]?.uri.toString();
  const result = await client.sendRequest(ImportHistoryRequest.type, { uri });
  if (!result.started) void vscode.window.showInformationMessage(`Engram: ${result.message}`);
}
