import * as vscode from 'vscode';
import type { MemoryServer } from '../server/memoryServer';
import { MemoryChanges } from './memoryChanges';
import { MEMORY_DIFF_SCHEME, MemoryDiffDocuments } from './memoryDiff';
import { MemorySidebar } from './memorySidebar';
import { registerShowMemories } from './showMemories';
import { TimelinePanel, type TimelineFocus } from './timelinePanel';
import { ViewCallAnswerer } from './viewCalls';

export const ViewCommands = {
  openTimeline: 'engram.openTimeline',
  refreshMemoryPanel: 'engram.refreshMemoryPanel',
} as const;

/** The memory views: the sidebar panel (also where CodeLenses and hover links show their memories), the timeline, and the diff documents both open. */
export function registerMemoryViews(context: vscode.ExtensionContext, server: MemoryServer, log: vscode.LogOutputChannel): void {
  const changes = new MemoryChanges(server);
  const diffs = new MemoryDiffDocuments(server);
  const calls = new ViewCallAnswerer(server, log, diffs);
  const timelineDeps = { extensionUri: context.extensionUri, server, calls, changes };
  const openTimeline = (focus: TimelineFocus = {}) => TimelinePanel.show(timelineDeps, focus);
  const sidebar = new MemorySidebar(context.extensionUri, server, calls, { openTimeline }, changes);
  context.subscriptions.push(
    changes,
    sidebar,
    changes.onDidChange(() => diffs.forget()),
    vscode.workspace.registerTextDocumentContentProvider(MEMORY_DIFF_SCHEME, diffs),
    vscode.window.registerWebviewViewProvider(MemorySidebar.viewId, sidebar),
    vscode.window.registerWebviewPanelSerializer(TimelinePanel.viewType, {
      deserializeWebviewPanel: async (panel) => TimelinePanel.revive(panel, timelineDeps),
    }),
    vscode.commands.registerCommand(ViewCommands.openTimeline, (focus?: TimelineFocus) => openTimeline(typeof focus === 'object' && focus ? focus : {})),
    vscode.commands.registerCommand(ViewCommands.refreshMemoryPanel, () => sidebar.refresh()),
    registerShowMemories(sidebar, log),
  );
}
