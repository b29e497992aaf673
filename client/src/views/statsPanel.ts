import * as vscode from 'vscode';
import type { StatsViewMessage, StatsViewRequest } from '../../../contracts/protocol';
import type { MemoryServer } from '../server/memoryServer';
import { webviewHtml, webviewOptions } from './webviewHtml';

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
    this.panel = vscode.window.createWebviewPanel('engram.stats', 'Engram: Memory Stats', vscode.ViewColumn.Active, webviewOptions(extensionUri));
    this.panel.webview.html = webviewHtml(this.panel.webview, extensionUri, { entry: 'stats', title: 'Engram: Memory Stats', rootId: 'root', stylesheet: false });
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
}
