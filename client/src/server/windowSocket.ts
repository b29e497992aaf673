import * as vscode from 'vscode';
import { memoryServerSocketPath } from '../../../server/src/socket/socketPath';
import { engramHome } from '../../../server/src/store/paths';

/**
 * Where this window's memory server answers hooks and `engram recall`: the server is told at
 * start, the integrated terminals through ENGRAM_SOCKET.
 */
export function windowSocketPath(): string {
  return memoryServerSocketPath(vscode.env.sessionId, engramHome(process.env));
}
