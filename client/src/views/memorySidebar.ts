import * as vscode from 'vscode';
import { MemoryPanelRequest } from '../../../server/src/viewProtocol';
import type { ExtensionMessage, PanelState } from '../../../webview/src/shared/messages';
import type { MemoryServer } from '../server/memoryServer';
import type { MemoryChanges } from './memoryChanges';
import type { ViewCallAnswerer, ViewHost } from './viewCalls';
import { webviewHtml, webviewOptions } from './webviewHtml';

const FOLLOW_AFTER_MS = 250;

interface Place {
  readonly uri: vscode.Uri;
  readonly line: number;
  readonly character: number;
}

/**
 * The Engram sidebar: what Engram knows about the place in the code the user is at. It follows the
 * active editor and cursor (debounced, and only while visible), and refetches when memories change.
 * Focus moving to a webview or another panel keeps the last file shown.
 */
export class MemorySidebar implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'engram.memoryPanel';

  private view: vscode.WebviewView | undefined;
  private place: Place | undefined;
  private state: PanelState = { kind: 'noEditor' };
  /** The document the shown state is about. */
  private shownUri: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Only the latest request's answer is shown. */
  private generation = 0;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly server: MemoryServer,
    private readonly calls: ViewCallAnswerer,
    private readonly host: Omit<ViewHost, 'refresh' | 'openColumn'>,
    changes: MemoryChanges,
  ) {
    this.follow(vscode.window.activeTextEditor);
    this.subscriptions = [
      vscode.window.onDidChangeActiveTextEditor((editor) => this.follow(editor)),
      vscode.window.onDidChangeTextEditorSelection((event) => this.follow(event.textEditor)),
      changes.onDidChange(() => this.schedule(FOLLOW_AFTER_MS)),
      // A server that stopped or started again changes what can be shown.
      server.onDidChangeStatus(() => this.schedule(FOLLOW_AFTER_MS)),
    ];
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = webviewOptions(this.extensionUri);
    view.webview.html = webviewHtml(view.webview, this.extensionUri, { entry: 'sidebar', title: 'Engram memory', rootId: 'engram-sidebar' });
    const host: ViewHost = { ...this.host, refresh: () => this.schedule(0), openColumn: () => vscode.window.activeTextEditor?.viewColumn ?? vscode.ViewColumn.Active };
    view.webview.onDidReceiveMessage((message: unknown) => this.calls.receive(view.webview, message, host, () => this.post()));
    view.onDidChangeVisibility(() => {
      if (view.visible) this.schedule(0);
    });
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
    });
    this.schedule(0);
  }

  /** Fetch again now (the view's refresh button). */
  refresh(): void {
    this.schedule(0);
  }

  private follow(editor: vscode.TextEditor | undefined): void {
    if (!editor || editor.document.uri.scheme !== 'file') return;
    const active = editor.selection.active;
    this.place = { uri: editor.document.uri, line: active.line, character: active.character };
    this.schedule(FOLLOW_AFTER_MS);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.load(), delayMs);
  }

  private async load(): Promise<void> {
    if (!this.view?.visible) return;
    const generation = ++this.generation;
    const place = this.place;
    if (!place) return this.show({ kind: 'noEditor' });
    const client = this.server.languageClient;
    if (!client) return this.show({ kind: 'unavailable', message: this.server.unavailableReason });
    const path = vscode.workspace.asRelativePath(place.uri, false);
    // Moving the cursor within a file keeps what is shown until the answer comes; another file shows "loading".
    if (this.shownUri !== place.uri.toString() || this.state.kind !== 'ready') this.show({ kind: 'loading', path });
    this.shownUri = place.uri.toString();
    try {
      const openUris = vscode.window.visibleTextEditors.map((e) => e.document.uri).filter((u) => u.scheme === 'file').map((u) => u.toString());
      const panel = await client.sendRequest(MemoryPanelRequest.type, {
        uri: place.uri.toString(),
        position: { line: place.line, character: place.character },
        openUris,
      });
      if (generation !== this.generation) return;
      this.show(panel ? { kind: 'ready', panel } : { kind: 'outside', path });
    } catch (error) {
      if (generation !== this.generation) return;
      this.show({ kind: 'error', message: (error as Error).message });
    }
  }

  private show(state: PanelState): void {
    this.state = state;
    this.post();
  }

  private post(): void {
    const message: ExtensionMessage = { type: 'panel', state: this.state };
    void this.view?.webview.postMessage(message);
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
  }
}
