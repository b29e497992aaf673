import * as vscode from 'vscode';
import { z } from 'zod';
import { Commands } from '../../../contracts/protocol';
import { MEMORY_SELECTION_MAX } from '../../../contracts/viewProtocol';
import { countedMemoriesSchema, selectedIdsSchema } from '../../../contracts/viewSchemas';
import { MemorySidebar } from './memorySidebar';

/** The command's arguments, as the server's CodeLenses and hover links give them: `(uri, ids | counted, from?)`. */
const args = z.object({
  uri: z.string().min(1).max(4096),
  shown: z.union([selectedIdsSchema, countedMemoriesSchema]),
  from: z.string().max(200).optional(),
});

/**
 * `engram.showMemories`, behind the server's CodeLenses ("2 constraints · 7 memories") and the
 * hover's "Open in panel" / "open" links: the memory panel shows exactly the memories they named,
 * or those a CodeLens counts (the server names them when asked).
 * The panel keeps the request until its page is up, so revealing a view never opened (or hidden)
 * still ends there.
 */
export function registerShowMemories(sidebar: MemorySidebar, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.commands.registerCommand(Commands.showMemories, async (uri: unknown, shown: unknown, from?: unknown) => {
    // Arguments are input: a link in any trusted Markdown can carry them.
    const parsed = args.safeParse({ uri, shown, from: from ?? undefined });
    let target: vscode.Uri | undefined;
    try {
      target = parsed.success ? vscode.Uri.parse(parsed.data.uri, true) : undefined;
    } catch {
      target = undefined;
    }
    if (!parsed.success || !target) {
      log.warn(`engram.showMemories was run with arguments it cannot use: ${JSON.stringify([uri, shown, from])?.slice(0, 300)}`);
      return;
    }
    const { shown: what } = parsed.data;
    sidebar.select({ uri: target, shown: Array.isArray(what) ? what.slice(0, MEMORY_SELECTION_MAX) : what, from: parsed.data.from ?? null });
    try {
      // The view's own focus command: shows the Engram container, resolves the view the first time.
      await vscode.commands.executeCommand(`${MemorySidebar.viewId}.focus`);
    } catch (error) {
      const message = (error as Error).message;
      log.error(`Could not show the memory panel: ${message}`);
      const choice = await vscode.window.showErrorMessage(`Engram: could not show the memory panel (${message}).`, 'Show Log');
      if (choice) log.show();
    }
  });
}
