import * as vscode from 'vscode';
import { EditorStateNotification } from '../../../contracts/protocol';
import type { MemoryServer } from '../server/memoryServer';

const SEND_AFTER_MS = 300;
const SELECTION_MAX = 2000;

/**
 * Tells the memory server where the user is (active file, cursor, selection), so Claude Code's
 * hooks can add what matters there to a prompt. Debounced: moving the cursor costs one small
 * message after the user pauses, nothing per keystroke.
 */
export function followEditorState(server: MemoryServer): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  const send = () => {
    const client = server.languageClient;
    if (!client) return;
    const editor = vscode.window.activeTextEditor;
    const document = editor?.document;
    if (!editor || !document || document.uri.scheme !== 'file') return;
    const selection = editor.selection.isEmpty ? null : document.getText(editor.selection).slice(0, SELECTION_MAX);
    void client.sendNotification(EditorStateNotification.type, {
      uri: document.uri.toString(),
      position: { line: editor.selection.active.line, character: editor.selection.active.character },
      selection,
    });
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(send, SEND_AFTER_MS);
  };
  const subscriptions = [vscode.window.onDidChangeActiveTextEditor(schedule), vscode.window.onDidChangeTextEditorSelection(schedule), server.onDidChangeStatus(schedule)];
  return new vscode.Disposable(() => {
    clearTimeout(timer);
    for (const s of subscriptions) s.dispose();
  });
}
