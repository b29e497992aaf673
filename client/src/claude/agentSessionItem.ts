import * as vscode from 'vscode';
import { Commands, type AgentSessionActivity } from '../../../contracts/protocol';

/** "Claude Code · 3 memories given": the live session Engram feeds; a click shows what it was given. */
export class AgentSessionItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('engram.agentSession', vscode.StatusBarAlignment.Left, 99);

  constructor() {
    this.item.name = 'Engram: Claude Code session';
    this.item.command = Commands.showInjections;
  }

  show(session: AgentSessionActivity | null): void {
    if (!session) {
      this.item.hide();
      return;
    }
    const n = session.memoriesGiven;
    this.item.text = `$(hubot) Claude Code · ${n} ${n === 1 ? 'memory' : 'memories'} given`;
    this.item.tooltip = `Engram gave Claude Code session ${session.sessionId.slice(0, 8)} ${n} memories (${session.tokensGiven} tokens). Click to see them.`;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
