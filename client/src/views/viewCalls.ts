import path from 'node:path';
import * as vscode from 'vscode';
import { z } from 'zod';
import { Commands, InjectionsRequest } from '../../../contracts/protocol';
import {
  AgentSessionsRequest,
  LocateSymbolRequest,
  MemoryActionRequest,
  MemoryDetailRequest,
  TimelinePageRequest,
  TimelineSearchRequest,
} from '../../../contracts/viewProtocol';
import type { ExtensionMessage, OpenTarget, TimelineTab, ViewCallMethod, ViewCalls } from '../../../contracts/webviewMessages';
import { agentSessionsParamsSchema, cardActionSchema, memoryRefSchema, projectRootSchema, timelinePageParamsSchema, timelineSearchParamsSchema } from '../../../contracts/viewSchemas';
import type { MemoryServer } from '../server/memoryServer';
import type { MemoryDiffDocuments } from './memoryDiff';

const projectRoot = projectRootSchema;
const memoryRef = memoryRefSchema;
const tab = z.enum(['timeline', 'injections']);

/** Every call's params, checked on receipt: a webview is a page, and its messages are input. */
const PARAMS: { readonly [M in ViewCallMethod]: z.ZodType<ViewCalls[M]['params']> } = {
  page: timelinePageParamsSchema,
  search: timelineSearchParamsSchema,
  sessions: agentSessionsParamsSchema,
  injections: z.object({ projectRoot, sessionId: z.string().min(1).max(200) }),
  detail: memoryRef,
  action: memoryRef.extend({
    action: cardActionSchema,
  }),
  copy: memoryRef,
  copyText: z.object({ title: z.string().max(1000), text: z.string().min(1).max(1_000_000) }),
  diff: memoryRef,
  open: z.object({ projectRoot, path: z.string().min(1).max(4096), line: z.number().int().min(0).optional(), symbol: z.string().max(1000).optional() }),
  openTimeline: z.object({ sessionId: z.string().max(200).optional(), tab: tab.optional() }),
  refresh: z.object({}).strict(),
  follow: z.object({}).strict(),
  showFileMemories: z.object({}).strict(),
  command: z.object({ command: z.enum(['showLog', 'restartServer', 'pinSelection']) }),
};

const call = z.object({ type: z.literal('call'), requestId: z.number().int(), method: z.enum(Object.keys(PARAMS) as [ViewCallMethod, ...ViewCallMethod[]]), params: z.unknown() });

type Handlers = { readonly [M in ViewCallMethod]: (params: ViewCalls[M]['params']) => Promise<ViewCalls[M]['result']> };

/** What a view adds to the shared calls: where files open, what "refresh" and "open timeline" do. */
export interface ViewHost {
  /** The editor column to open files in (beside the timeline, not over it). */
  readonly openColumn: () => vscode.ViewColumn;
  readonly refresh: () => void;
  /** The sidebar: back from the memories a CodeLens or hover named to following the editor. */
  readonly followEditor?: () => void;
  /** The sidebar: what the file's top CodeLens counts, as clicking it shows. */
  readonly showFileMemories?: () => void;
  readonly openTimeline: (focus: { sessionId?: string; tab?: TimelineTab }) => void;
}

/**
 * Answers the calls of the memory views: each is validated, then relayed to the memory server or
 * done here (opening files, the diff editor, the clipboard). One reply per call, with the result or
 * a message saying what went wrong; failures are logged with their context.
 */
export class ViewCallAnswerer {
  constructor(
    private readonly server: MemoryServer,
    private readonly log: vscode.LogOutputChannel,
    private readonly diffs: MemoryDiffDocuments,
  ) {}

  /** Handles one message from a webview: 'ready' goes to `onReady`, calls are answered. */
  async receive(webview: vscode.Webview, raw: unknown, host: ViewHost, onReady: () => void): Promise<void> {
    if (typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'ready') {
      onReady();
      return;
    }
    const parsed = call.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`Ignored a malformed message from a memory view: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    const { requestId, method } = parsed.data;
    const params = PARAMS[method].safeParse(parsed.data.params);
    let reply: ExtensionMessage;
    if (!params.success) {
      const message = params.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ');
      this.log.warn(`A memory view's ${method} call had bad params: ${message}`);
      reply = { type: 'reply', requestId, ok: false, message };
    } else {
      try {
        const handler = this.handlers(host)[method] as (params: unknown) => Promise<unknown>;
        reply = { type: 'reply', requestId, ok: true, result: await handler(params.data) };
      } catch (error) {
        const message = (error as Error).message;
        this.log.error(`Memory view ${method} failed: ${message}`);
        reply = { type: 'reply', requestId, ok: false, message };
      }
    }
    void webview.postMessage(reply);
  }

  private client() {
    const client = this.server.languageClient;
    if (!client) throw new Error(this.server.unavailableReason);
    return client;
  }

  private handlers(host: ViewHost): Handlers {
    return {
      page: (params) => this.client().sendRequest(TimelinePageRequest.type, params),
      search: (params) => this.client().sendRequest(TimelineSearchRequest.type, params),
      sessions: (params) => this.client().sendRequest(AgentSessionsRequest.type, params),
      injections: (params) => this.client().sendRequest(InjectionsRequest.type, params),
      detail: (params) => this.client().sendRequest(MemoryDetailRequest.type, params),
      action: (params) => this.client().sendRequest(MemoryActionRequest.type, params),
      copy: async (params) => {
        const result = await this.client().sendRequest(MemoryActionRequest.type, { ...params, action: { type: 'copy' } });
        if (!result.memory || result.text === undefined) throw new Error('that memory no longer exists');
        return copied(result.memory.title, result.text);
      },
      copyText: (params) => copied(params.title, params.text),
      diff: async (params) => {
        await this.diffs.open(params);
        return null;
      },
      open: async (target) => {
        await this.open(target, host.openColumn());
        return null;
      },
      openTimeline: async (focus) => {
        host.openTimeline(focus);
        return null;
      },
      refresh: async () => {
        host.refresh();
        return null;
      },
      follow: async () => {
        host.followEditor?.();
        return null;
      },
      showFileMemories: async () => {
        host.showFileMemories?.();
        return null;
      },
      command: async ({ command }) => {
        if (command === 'showLog') this.log.show();
        else if (command === 'restartServer') await vscode.commands.executeCommand(Commands.restartServer);
        else await vscode.commands.executeCommand(Commands.pinSelection);
        return null;
      },
    };
  }

  /** Opens a project file at a line, or at a symbol's declaration (found by the server), or at its top. */
  private async open(target: OpenTarget, viewColumn: vscode.ViewColumn): Promise<void> {
    const uri = vscode.Uri.file(path.join(target.projectRoot, ...target.path.split('/')));
    // Only files of this window's folders: a message is input, even from our own page.
    if (!vscode.workspace.getWorkspaceFolder(uri) || path.relative(target.projectRoot, uri.fsPath).startsWith('..')) {
      throw new Error(`${target.path} is not in a folder open in this window`);
    }
    let line = target.line;
    if (line === undefined && target.symbol) {
      const found = await this.client().sendRequest(LocateSymbolRequest.type, { projectRoot: target.projectRoot, path: target.path, symbol: target.symbol });
      line = found?.line;
    }
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(uri);
    } catch (error) {
      throw new Error(`${target.path} cannot be opened (${(error as Error).message}); it may have been moved or deleted since`);
    }
    const at = new vscode.Position(Math.min(line ?? 0, Math.max(0, document.lineCount - 1)), 0);
    const editor = await vscode.window.showTextDocument(document, { viewColumn, preview: true, selection: new vscode.Range(at, at) });
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}

/** "Copy as context": the text on the clipboard, and a word in the status bar. */
async function copied(title: string, text: string): Promise<{ readonly text: string }> {
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(`$(clippy) Engram: copied "${title}" as context`, 4000);
  return { text };
}
