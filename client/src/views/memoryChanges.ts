import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { MemoriesChangedNotification } from '../../../contracts/viewProtocol';
import type { MemoryServer } from '../server/memoryServer';

/**
 * "A project's memories changed", from whichever language client is current: the server announces
 * its own writes and other processes' (hooks, CLI, MCP). Fires null when a server (re)starts.
 */
export class MemoryChanges implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<string | null>();
  readonly onDidChange = this.emitter.event;
  private client: LanguageClient | undefined;
  private notification: vscode.Disposable | undefined;
  private readonly statusSubscription: vscode.Disposable;

  constructor(private readonly server: MemoryServer) {
    // The server reports its status once it is initialized (and after every restart): attach then.
    this.statusSubscription = server.onDidChangeStatus(() => this.attach());
    this.attach();
  }

  private attach(): void {
    const client = this.server.languageClient;
    if (client === this.client) return;
    this.notification?.dispose();
    this.client = client;
    this.notification = client?.onNotification(MemoriesChangedNotification.type, (params) => this.emitter.fire(params.projectRoot));
    this.emitter.fire(null);
  }

  dispose(): void {
    this.statusSubscription.dispose();
    this.notification?.dispose();
    this.emitter.dispose();
  }
}
