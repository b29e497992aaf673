import path from 'node:path';
import * as vscode from 'vscode';
import { MemoryDiffRequest, type MemoryDiff, type MemoryRef } from '../../../contracts/viewProtocol';
import type { MemoryServer } from '../server/memoryServer';

export const MEMORY_DIFF_SCHEME = 'engram-memory';

type Side = 'before' | 'after';

/**
 * Diff memories in VS Code's diff editor. Both sides are read-only virtual documents
 * (`engram-memory:/<id>/<file>?…`, the file name kept so the language mode follows it) whose text
 * the memory server reconstructs from the stored patch: the whole file as it is now with the change
 * reversed out of it, or only the changed lines when the file has moved on (docs/memory-views.md).
 */
export class MemoryDiffDocuments implements vscode.TextDocumentContentProvider {
  private readonly diffs = new Map<string, Promise<MemoryDiff | null>>();

  constructor(private readonly server: MemoryServer) {}

  provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const { projectRoot, id, side } = JSON.parse(uri.query) as MemoryRef & { side: Side };
    return this.diff({ projectRoot, id }).then((diff) => (diff ? diff[side] : ''));
  }

  /** Opens the memory's change in the diff editor; throws with a sentence for the user when there is none. */
  async open(ref: MemoryRef): Promise<void> {
    this.diffs.delete(key(ref));
    const diff = await this.diff(ref);
    if (!diff) throw new Error('this memory has no patch to show (its file is not recorded, or its text is not a diff)');
    const side = (s: Side) => vscode.Uri.from({ scheme: MEMORY_DIFF_SCHEME, path: `/${ref.id}/${diff.path}`, query: JSON.stringify({ ...ref, side: s }) });
    const scope = diff.extent === 'file' ? 'in the file as it is now' : 'changed lines only';
    const title = `${path.posix.basename(diff.path)}: ${diff.title} (${scope}${diff.truncated ? ', patch capped' : ''})`;
    await vscode.commands.executeCommand('vscode.diff', side('before'), side('after'), title, { preview: true });
  }

  /** Drops fetched texts: a memory or its file changed. */
  forget(): void {
    this.diffs.clear();
  }

  private diff(ref: MemoryRef): Promise<MemoryDiff | null> {
    let pending = this.diffs.get(key(ref));
    if (!pending) {
      const client = this.server.languageClient;
      if (!client) return Promise.reject(new Error(this.server.unavailableReason));
      pending = Promise.resolve(client.sendRequest(MemoryDiffRequest.type, ref));
      pending.catch(() => this.diffs.delete(key(ref)));
      this.diffs.set(key(ref), pending);
    }
    return pending;
  }
}

function key(ref: MemoryRef): string {
  return `${ref.projectRoot}\n${ref.id}`;
}
