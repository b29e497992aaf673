import * as vscode from 'vscode';
import { Commands, type ServerStatusParams } from '../../contracts/protocol';

/** What the status bar says about the memory server. */
export type ServerState =
  | { readonly kind: 'starting' }
  | { readonly kind: 'running'; readonly status: ServerStatusParams; /** Which runtime the server runs on, and why. */ readonly runtime?: string }
  | { readonly kind: 'restarting'; readonly attempt: number; readonly reason: string }
  | { readonly kind: 'failed'; readonly message: string };

/** The "Engram" status bar item: server state and memory count; a click shows the stats. */
export class MemoryStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('engram.status', vscode.StatusBarAlignment.Left, 100);
  private current: ServerState = { kind: 'starting' };

  constructor() {
    this.item.name = 'Engram';
    this.item.command = Commands.showStats;
    this.show({ kind: 'starting' });
    this.item.show();
  }

  get state(): ServerState {
    return this.current;
  }

  show(state: ServerState): void {
    this.current = state;
    const item = this.item;
    item.backgroundColor = undefined;
    switch (state.kind) {
      case 'starting':
        item.text = '$(loading~spin) Engram';
        item.tooltip = 'Engram: starting the memory server…';
        break;
      case 'running': {
        const { health, message, memoryCount } = state.status;
        item.text = `${health === 'ok' ? '$(database)' : health === 'warning' ? '$(warning)' : '$(error)'} Engram ${memoryCount}${state.status.team === 'offline' ? ' · team: offline' : ''}`;
        item.tooltip = `Engram: ${message}${state.runtime ? `\nMemory server on ${state.runtime}` : ''}`;
        if (health === 'error') item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        if (health === 'warning') item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      }
      case 'restarting':
        item.text = '$(sync~spin) Engram restarting';
        item.tooltip = `Engram: the memory server stopped (${state.reason}); restarting, attempt ${state.attempt}.`;
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      case 'failed':
        item.text = '$(error) Engram';
        item.tooltip = `Engram: ${state.message}`;
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}
