import * as vscode from 'vscode';
import type { ExtensionMessage, TimelineTab } from '../../../contracts/webviewMessages';
import type { MemoryServer } from '../server/memoryServer';
import type { MemoryChanges } from './memoryChanges';
import type { ViewCallAnswerer, ViewHost } from './viewCalls';
import { webviewHtml, webviewOptions } from './webviewHtml';

export interface TimelineFocus {
  readonly sessionId?: string;
  readonly tab?: TimelineTab;
}

interface TimelineDeps {
  readonly extensionUri: vscode.Uri;
  readonly server: MemoryServer;
  readonly calls: ViewCallAnswerer;
  readonly changes: MemoryChanges;
}

/**
 * "Engram: Open Memory Timeline": one panel per window with every memory over time, the injection
 * log of agent sessions, filters and search. The page asks for what it shows (keyset pages); this
 * host relays its calls, tells it when memories change, and restores it after a reload.
 */
export class TimelinePanel {
  static readonly viewType = 'engram.timeline';
  private static current: TimelinePanel | undefined;

  static show(deps: TimelineDeps, focus: TimelineFocus = {}): void {
    const current = TimelinePanel.current;
    if (current) {
      // A hidden webview reloads when revealed: it gets the focus when it says it is ready.
      if (current.panel.visible) current.focus(focus);
      else current.pendingFocus = focus.sessionId || focus.tab ? focus : undefined;
      current.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(TimelinePanel.viewType, 'Engram: Memory Timeline', vscode.ViewColumn.Active, webviewOptions(deps.extensionUri));
    TimelinePanel.current = new TimelinePanel(panel, deps, focus);
  }

  /** A timeline open when the window reloaded; its page restores its own state (filters, scroll). */
  static revive(panel: vscode.WebviewPanel, deps: TimelineDeps): void {
    TimelinePanel.current?.panel.dispose();
    panel.webview.options = webviewOptions(deps.extensionUri);
    TimelinePanel.current = new TimelinePanel(panel, deps, {});
  }

  private pendingFocus: TimelineFocus | undefined;
  private readonly subscriptions: vscode.Disposable[];

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    deps: TimelineDeps,
    focus: TimelineFocus,
  ) {
    this.pendingFocus = focus.sessionId || focus.tab ? focus : undefined;
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'engram-activity.svg');
    panel.webview.html = webviewHtml(panel.webview, deps.extensionUri, { entry: 'timeline', title: 'Engram: Memory Timeline', rootId: 'engram-timeline' });
    const host: ViewHost = {
      openColumn: () => (panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Beside : vscode.ViewColumn.One),
      refresh: () => this.post({ type: 'changed', projectRoot: null }),
      openTimeline: (next) => this.focus(next),
    };
    this.subscriptions = [
      panel.webview.onDidReceiveMessage((message: unknown) =>
        deps.calls.receive(panel.webview, message, host, () => {
          if (!deps.server.languageClient) this.post({ type: 'unavailable', message: deps.server.unavailableReason });
          if (this.pendingFocus) this.focus(this.pendingFocus);
        }),
      ),
      deps.changes.onDidChange((projectRoot) => this.post({ type: 'changed', projectRoot })),
      deps.server.onDidChangeStatus(() => {
        if (!deps.server.languageClient) this.post({ type: 'unavailable', message: deps.server.unavailableReason });
      }),
    ];
    panel.onDidDispose(() => {
      for (const s of this.subscriptions) s.dispose();
      if (TimelinePanel.current === this) TimelinePanel.current = undefined;
    });
  }

  private focus(focus: TimelineFocus): void {
    if (!focus.sessionId && !focus.tab) return;
    this.pendingFocus = undefined;
    this.post({ type: 'focus', tab: focus.tab ?? 'timeline', sessionId: focus.sessionId ?? null });
  }

  private post(message: ExtensionMessage): void {
    void this.panel.webview.postMessage(message);
  }
}
