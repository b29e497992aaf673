import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { BackfillProgressNotification, CancelBackfillNotification, ResumeBackfillNotification } from '../../../contracts/protocol';
import { ProgressNotifications } from './progressNotifications';

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Shows the server's backfill of earlier Claude Code sessions as a cancellable progress
 * notification. Cancelling stops it after the current file; what was read stays, and the rest is
 * read at the next start or when the user picks "Resume Now".
 */
export function followBackfillProgress(client: LanguageClient): vscode.Disposable {
  const notifications = new ProgressNotifications();
  return client.onNotification(BackfillProgressNotification.type, (params) => {
    if (params.state === 'begin') {
      notifications.begin(params.id, 'Engram: reading earlier Claude Code sessions', `${params.files} sessions, ${megabytes(params.bytes)}`, () =>
        void client.sendNotification(CancelBackfillNotification.type, { id: params.id }),
      );
      return;
    }
    if (params.state === 'report') {
      notifications.report(params.id, params.doneBytes, params.bytes, `${params.doneFiles} of ${params.files} sessions`);
      return;
    }
    notifications.end(params.id);
    if (params.cancelled) {
      void vscode.window
        .showInformationMessage('Engram stopped reading earlier Claude Code sessions. It goes on where it stopped at the next start.', 'Resume Now')
        .then((choice) => {
          if (choice) void client.sendNotification(ResumeBackfillNotification.type, {});
        });
    }
  });
}
