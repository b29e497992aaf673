import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { StatsViewMessage, StatsViewRequest } from '../../../contracts/protocol';
import type { MemoryServer } from '../server/memoryServer';

/**
 * "Engram: Memory Stats": a webview showing what the memory server holds, per project. It refreshes
 * whenever the server reports a new status (a restart, memories written by any process).
 */
export class StatsPanel {
  private static current: StatsPanel | undefined;

  static show(extensionUri: vscode.Uri, server: MemoryServer, log: vscode.LogOutputChannel): void {
    if (StatsPanel.current) {
      StatsPanel.current.panel.reveal();
      void StatsPanel.current.refresh();
      return;
    }
    StatsPanel.current = new StatsPanel(extensionUri, server, log);
  }

  private readonly panel: vscode.WebviewPanel;

  private constructor(
    extensionUri: vscode.Uri,
    private readonly server: MemoryServer,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const assets = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    this.panel = vscode.window.createWebviewPanel('engram.stats', 'Engram: Memory Stats', vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [assets],
    });
    this.panel.webview.html = this.html(assets);
    this.panel.webview.onDidReceiveMessage((message: StatsViewRequest) => {
      if (message?.type === 'ready' || message?.type === 'refresh') void this.refresh();
    });
    const statusSubscription = server.onDidChangeStatus(() => void this.refresh());
    this.panel.onDidDispose(() => {
      statusSubscription.dispose();
      StatsPanel.current = undefined;
    });
  }

  private async refresh(): Promise<void> {
    let message: StatsViewMessage;
    try {
      message = { type: 'stats', stats: await this.server.stats() };
    } catch (error) {
      this.log.error(`Loading memory stats failed: ${(error as Error).message}`);
      message = { type: 'error', message: (error as Error).message };
    }
    void this.panel.webview.postMessage(message);
  }

  private html(assets: vscode.Uri): string {
    const webview = this.panel.webview;
    const nonce = randomBytes(16).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(assets, 'stats.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(assets, 'webview.css'));
    return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource} 'unsafe-inline'; font-src ${webview.cspSource}; script-src 'nonce-${nonce}';">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${style}">
  <title>Engram: Memory Stats</title>
</head>
<body>
  <main id="root" aria-live="polite"><p class="muted">Loading memory stats…</p></main>
  <script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }
}
