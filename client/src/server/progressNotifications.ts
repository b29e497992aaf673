import * as vscode from 'vscode';

interface Running {
  readonly progress: vscode.Progress<{ message?: string; increment?: number }>;
  readonly done: () => void;
  percent: number;
}

/**
 * Long work the memory server reports by id (begin, reports, end) shown as cancellable progress
 * notifications: the backfill of Claude Code sessions and the import of the git history.
 */
export class ProgressNotifications {
  private readonly running = new Map<string, Running>();

  /** Shows a notification; `onCancel` is called when the user cancels it (the server then ends it). */
  begin(id: string, title: string, message: string, onCancel: () => void): void {
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (progress, token) =>
        new Promise<void>((resolve) => {
          token.onCancellationRequested(onCancel);
          this.running.set(id, { progress, done: resolve, percent: 0 });
          progress.report({ message });
        }),
    );
  }

  /** Moves the bar to `done` of `total`. */
  report(id: string, done: number, total: number, message: string): void {
    const entry = this.running.get(id);
    if (!entry) return;
    const percent = total ? (100 * done) / total : 100;
    entry.progress.report({ increment: percent - entry.percent, message });
    entry.percent = percent;
  }

  end(id: string): void {
    this.running.get(id)?.done();
    this.running.delete(id);
  }
}
