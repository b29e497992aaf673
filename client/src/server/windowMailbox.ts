import * as vscode from 'vscode';
import { memoryServerMailbox } from '../../../server/src/mailbox/mailboxPath';
import { engramHome } from '../../../server/src/paths/engramPaths';

/**
 * Where this window's memory server answers hooks and `engram recall`: the server is told at
 * start, the integrated terminals through ENGRAM_MAILBOX.
 */
export function windowMailbox(): string {
  return memoryServerMailbox(vscode.env.sessionId, engramHome(process.env), process.env.XDG_RUNTIME_DIR);
}
