import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { BackfillProgressNotification, CancelBackfillNotification, ResumeBackfillNotification, type BackfillProgressParams } from '../../../server/src/protocol';

interface Running {
  readonly progress: vscode.Progress<{ message?: string; increment?: number }>;
  readonly done: () => void;
  percent: number;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Shows the server's backfill of earlier Claude Code sessions as a cancellable progress
 * notification. Cancelling stops it after the current file; what was read stays, and the rest is
 * read at the next start or when the user picks "Resume Now".
 */
export function followBackfillProgress(client: LanguageClient): vscode.Disposable {
  const running = new Map<string, Running>();
  const begin = (params: Extract<BackfillProgressParams, { state: 'begin' }>) =>
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Engram: reading earlier Claude Code sessions', cancellable: true },
      (progress, token) =>
        new Promise<void>((resolve) => {
          token.onCancellationRequested(() => void client.sendNotification(CancelBackfillNotification.type, { id: params.id }));
          running.set(params.id, { progress, done: resolve, percent: 0 });
          progress.report({ message: `${params.files} sessions, ${megabytes(params.bytes)}` });
        }),
    );
  return client.onNotification(BackfillProgressNotification.type, (params) => {
    if (params.state === 'begin') return begin(params);
    const entry = running.get(params.id);
    if (params.state === 'report') {
      if (!entry) return;
      const percent = params.bytes ? (100 * params.doneBytes) / params.bytes : 100;
      entry.progress.report({ increment: percent - entry.percent, message: `${params.doneFiles} of ${params.files} sessions` });
      entry.percent = percent;
      return;
    }
    running.delete(params.id);
    entry?.done();
    if (params.cancelled) {
      void vscode.window
        .showInformationMessage('Engram stopped reading earlier Claude Code sessions. It goes on where it stopped at the next start.', 'Resume Now')
        .then((choice) => {
          if (choice) void client.sendNotification(ResumeBackfillNotification.type, {});
        });
    }
  });
}
