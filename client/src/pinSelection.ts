import * as vscode from 'vscode';
import { PinConstraintRequest, PinSuggestionRequest, type PinScope } from '../../contracts/protocol';
import type { MemoryServer } from './server/memoryServer';

interface ScopeItem extends vscode.QuickPickItem {
  readonly scope: PinScope;
}

interface StrengthItem extends vscode.QuickPickItem {
  readonly strength: 'hard' | 'soft';
  /** For the team: also written to the project's team file, `.engram/memories.jsonl` (docs/team.md). */
  readonly shared: boolean;
}

function toRange(selection: vscode.Selection) {
  return { start: { line: selection.start.line, character: selection.start.character }, end: { line: selection.end.line, character: selection.end.character } };
}

/**
 * "Engram: Pin Selection as Constraint": asks for the rule (prefilled from the selection's
 * comment), the scope, the strength and whether it is for the user or the team (default: for
 * the user), then stores it. Escape at any step pins nothing.
 */
export async function pinSelection(server: MemoryServer): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const client = server.languageClient;
  if (!editor) {
    void vscode.window.showWarningMessage('Engram: open a file and select the code the rule governs.');
    return;
  }
  if (!client) {
    void vscode.window.showErrorMessage(`Engram cannot pin: ${server.unavailableReason}.`);
    return;
  }
  const uri = editor.document.uri.toString();
  const range = toRange(editor.selection);
  const suggestion = await client.sendRequest(PinSuggestionRequest.type, { uri, range });
  if (!suggestion) {
    void vscode.window.showWarningMessage('Engram: this file is not in a workspace folder Engram keeps memory for.');
    return;
  }
  const rule = await vscode.window.showInputBox({
    title: 'Pin as constraint (1/3): the rule',
    prompt: 'The rule that must keep holding for this code',
    value: suggestion.rule,
    validateInput: (value) => (value.trim() ? undefined : 'Write the rule'),
  });
  if (rule === undefined) return;

  const lines = editor.selection.start.line === editor.selection.end.line ? `line ${editor.selection.start.line + 1}` : `lines ${editor.selection.start.line + 1}–${editor.selection.end.line + 1}`;
  const scopes: ScopeItem[] = [
    { scope: 'code', label: '$(selection) This code', description: `${suggestion.path}, ${lines} — follows the code as it moves` },
    ...(suggestion.symbol ? [{ scope: 'symbol' as const, label: '$(symbol-method) This symbol', description: suggestion.symbol }] : []),
    { scope: 'file', label: '$(file) This file', description: suggestion.path },
    { scope: 'glob', label: '$(files) Files matching a glob', description: 'e.g. src/**/*.ts' },
    { scope: 'project', label: '$(root-folder) The whole project' },
  ];
  const scope = await vscode.window.showQuickPick(scopes, { title: 'Pin as constraint (2/3): where it applies' });
  if (!scope) return;
  let glob: string | undefined;
  if (scope.scope === 'glob') {
    const folder = suggestion.path.includes('/') ? suggestion.path.slice(0, suggestion.path.lastIndexOf('/')) : '';
    glob = await vscode.window.showInputBox({ title: 'Pin as constraint: glob', prompt: 'Project-relative glob of the files the rule governs', value: folder ? `${folder}/**` : '**/*' });
    if (glob === undefined) return;
  }

  // For me first: nothing is written into the repository unless the user chooses the team.
  const strengths: StrengthItem[] = [
    { strength: 'hard', shared: false, label: '$(lock) Hard', description: 'for me: always shown, always given to agents where it applies, never evicted' },
    { strength: 'soft', shared: false, label: '$(pin) Soft', description: 'for me: ranked first, but may be left out of a tight budget' },
    { strength: 'hard', shared: true, label: '$(organization) Hard, for the team', description: 'also written to .engram/memories.jsonl: commit it, and every clone has the rule' },
    { strength: 'soft', shared: true, label: '$(organization) Soft, for the team', description: 'also written to .engram/memories.jsonl, for every clone' },
  ];
  const strength = await vscode.window.showQuickPick(strengths, { title: 'Pin as constraint (3/3): strength, and for whom' });
  if (!strength) return;

  try {
    const memory = await client.sendRequest(PinConstraintRequest.type, { uri, range, rule, scope: scope.scope, glob, strength: strength.strength, shared: strength.shared });
    const forWhom = strength.shared ? ' for the team (commit .engram/memories.jsonl to share it)' : '';
    void vscode.window.setStatusBarMessage(`$(pin) Engram: pinned "${memory.title}"${forWhom}`, 5000);
  } catch (error) {
    void vscode.window.showErrorMessage(`Engram could not pin this: ${(error as Error).message}`);
  }
}
