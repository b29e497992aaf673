import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { CountedMemories } from '../../../contracts/protocol';
import { MemoryPanelRequest, MemorySelectionRequest } from '../../../contracts/viewProtocol';
import type { ExtensionMessage, PanelState } from '../../../contracts/webviewMessages';
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

/** What `engram.showMemories` asked for: only these memories of this document, or those a CodeLens counts. */
export interface Selection {
  readonly uri: vscode.Uri;
  readonly shown: readonly string[] | CountedMemories;
  /** Where they came from, as a phrase ("the CodeLens on findCustomer"). */
  readonly from: string | null;
}

/**
 * The Engram sidebar: what Engram knows about the place in the code the user is at. It follows the
 * active editor and cursor (debounced, and only while visible), and refetches when memories change.
 * Focus moving to a webview or another panel keeps the last file shown.
 *
 * A CodeLens or hover link (`engram.showMemories`) makes it show only the memories it named, for
 * that file, until the user asks for all of them ("Show all for this file") or another file's
 * editor becomes active; moving the cursor in the same file keeps them.
 */
export class MemorySidebar implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'engram.memoryPanel';

  private view: vscode.WebviewView | undefined;
  private place: Place | undefined;
  /** Set while the panel shows only the memories a CodeLens or hover named. */
  private selection: (Selection & { readonly request: number }) | undefined;
  /** Numbers each use of `engram.showMemories` (from the clock, so a page's saved number from before a reload never matches). */
  private lastRequest = Date.now();
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
    private readonly host: Omit<ViewHost, 'refresh' | 'openColumn' | 'followEditor' | 'showFileMemories'>,
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
    const host: ViewHost = {
      ...this.host,
      refresh: () => this.schedule(0),
      followEditor: () => this.followEditor(),
      showFileMemories: () => {
        if (this.place) this.select({ uri: this.place.uri, shown: { of: 'file' }, from: 'the memory panel' });
      },
      openColumn: () => vscode.window.activeTextEditor?.viewColumn ?? vscode.ViewColumn.Active,
    };
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

  /**
   * Shows only these memories of the document. The caller reveals the view; the request is kept
   * here until it is shown: a view never resolved, or hidden (its page unloaded), loads it when it
   * becomes visible, and the page gets it again when it says it is ready.
   */
  select(selection: Selection): void {
    this.selection = { ...selection, request: ++this.lastRequest };
    const uri = selection.uri.toString();
    if (this.place?.uri.toString() !== uri) {
      // Usually the active editor's document; else "Show all for this file" starts at its top.
      const at = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri)?.selection.active;
      this.place = { uri: selection.uri, line: at?.line ?? 0, character: at?.character ?? 0 };
    }
    this.schedule(0);
  }

  /** "Show all for this file": back to what applies where the editor is. */
  private followEditor(): void {
    this.selection = undefined;
    this.schedule(0);
  }

  private follow(editor: vscode.TextEditor | undefined): void {
    if (!editor || editor.document.uri.scheme !== 'file') return;
    const active = editor.selection.active;
    this.place = { uri: editor.document.uri, line: active.line, character: active.character };
    // The memories a CodeLens or hover named were about their file: another file shows its own.
    if (this.selection && this.selection.uri.toString() !== editor.document.uri.toString()) this.selection = undefined;
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
    // Moving the cursor within a file, or going between its selected memories and all of them, keeps
    // what is shown until the answer comes; another file shows "loading".
    const shownHere = this.shownUri === place.uri.toString() && (this.state.kind === 'ready' || this.state.kind === 'selection');
    if (!shownHere) this.show({ kind: 'loading', path });
    this.shownUri = place.uri.toString();
    try {
      const state = this.selection ? await this.loadSelection(client, this.selection, path) : await this.loadPanel(client, place, path);
      if (generation !== this.generation) return;
      this.show(state);
    } catch (error) {
      if (generation !== this.generation) return;
      this.show({ kind: 'error', message: (error as Error).message });
    }
  }

  private async loadPanel(client: LanguageClient, place: Place, path: string): Promise<PanelState> {
    const openUris = vscode.window.visibleTextEditors.map((e) => e.document.uri).filter((u) => u.scheme === 'file').map((u) => u.toString());
    const panel = await client.sendRequest(MemoryPanelRequest.type, {
      uri: place.uri.toString(),
      position: { line: place.line, character: place.character },
      openUris,
    });
    return panel ? { kind: 'ready', panel } : { kind: 'outside', path };
  }

  private async loadSelection(client: LanguageClient, selection: Selection & { readonly request: number }, path: string): Promise<PanelState> {
    const uri = selection.uri.toString();
    const { shown } = selection;
    const found = await client.sendRequest(MemorySelectionRequest.type, 'of' in shown ? { uri, counted: shown } : { uri, ids: shown });
    if (found) return { kind: 'selection', selection: found, from: selection.from, request: selection.request };
    // Not in an open project (any more): nothing to select from, as following the editor would say.
    if (this.selection === selection) this.selection = undefined;
    return { kind: 'outside', path };
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
