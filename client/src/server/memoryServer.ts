import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  State,
  TransportKind,
  type ErrorHandler,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { Commands, ServerStatusNotification, StatsRequest, type AgentSessionActivity, type StatsResult } from '../../../contracts/protocol';
import { MEMORY_SERVER_NODE_FLAGS, memoryServerEnv } from '../../../server/src/runtime/memoryServerFlags';
import { readEngramSettings, SERVER_SETTINGS } from '../settings';
import type { MemoryStatusItem } from '../statusBar';
import { followBackfillProgress } from './backfillProgress';
import { followHistoryImport } from './historyImport';
import { resolveServerRuntime, runtimeEnv, type RuntimeResolution, type ServerRuntime } from './serverRuntime';
import { windowMailbox } from './windowMailbox';

const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 3 * 60_000;

/**
 * The files the editor shows as the server starts (`lsp --warm`), the active one first: the
 * server parses them while it starts, so the first hover does not wait for a cold parser.
 */
function warmArguments(): string[] {
  const shown = [vscode.window.activeTextEditor, ...vscode.window.visibleTextEditors].filter((e) => e?.document.uri.scheme === 'file').map((e) => e!.document.uri.fsPath);
  const list = [...new Set(shown)].filter((file) => !file.includes(',')).slice(0, 10).join(',');
  return list ? ['--warm', list] : [];
}

/**
 * Owns the language client and the memory server process behind it: finds a runtime, starts,
 * restarts a crashed server a bounded number of times, and keeps the status bar truthful.
 */
export class MemoryServer implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly crashes: number[] = [];
  private runtimeError: string | undefined;
  private runtime: Promise<RuntimeResolution> | undefined;
  private readonly statusChanged = new vscode.EventEmitter<void>();
  /** Fires when the server reports a status (after a start, when memories change) and when it cannot run. */
  readonly onDidChangeStatus = this.statusChanged.event;
  private readonly agentSessionChanged = new vscode.EventEmitter<AgentSessionActivity | null>();
  /** The live Claude Code session Engram is feeding, as the server reports it (null: none). */
  readonly onDidChangeAgentSession = this.agentSessionChanged.event;

  private readonly configurationWatch: vscode.Disposable;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly status: MemoryStatusItem,
  ) {
    // Setting the path (e.g. from the "Set Node Path" action) should just work, with no restart command.
    this.configurationWatch = vscode.workspace.onDidChangeConfiguration((event) => {
      const changed = SERVER_SETTINGS.find((key) => event.affectsConfiguration(key));
      if (!changed) return;
      this.log.info(`${changed} changed; restarting the memory server.`);
      void this.restart();
    });
  }

  get languageClient(): LanguageClient | undefined {
    return this.client?.state === State.Running ? this.client : undefined;
  }

  /** Why the server is not running, for commands that need it. */
  get unavailableReason(): string {
    return this.runtimeError ?? 'the Engram memory server is not running';
  }

  async start(): Promise<void> {
    this.status.show({ kind: 'starting' });
    const resolution = await this.resolveRuntime(true);
    if (!resolution.ok) {
      this.failRuntime(resolution.reason);
      return;
    }
    this.runtimeError = undefined;
    const { runtime } = resolution;
    for (const reason of runtime.passedOver) this.log.warn(`Not running the memory server on ${reason}`);
    // The detail names the origin: "Node v24.9.0 at … (the editor's own runtime)".
    const runsOn = runtime.detail;
    this.log.info(`Starting the memory server on ${runsOn}`);
    this.client = this.createClient(runtime);
    followBackfillProgress(this.client);
    followHistoryImport(this.client);
    this.client.onNotification(ServerStatusNotification.type, (status) => {
      this.status.show({ kind: 'running', status, runtime: runtime.passedOver.length ? `${runsOn}, because ${runtime.passedOver.join('; ')}` : runsOn });
      this.agentSessionChanged.fire(status.agentSession ?? null);
      this.statusChanged.fire();
    });
    try {
      await this.client.start();
    } catch (error) {
      const message = `The memory server did not start: ${(error as Error).message}`;
      this.log.error(message);
      this.status.show({ kind: 'failed', message });
    }
  }

  /**
   * The runtime the server runs on, for whatever else runs Engram (the MCP servers offered to
   * agents): resolved once per start, `fresh` at a start, since settings or PATH may have changed.
   */
  resolveRuntime(fresh = false): Promise<RuntimeResolution> {
    if (fresh || !this.runtime) {
      const configured = readEngramSettings().nodePath;
      this.runtime = resolveServerRuntime({ configured, editor: process.execPath, engramJs: this.context.asAbsolutePath('dist/engram.js') });
    }
    return this.runtime;
  }

  /** Asks whichever client is current, so callers never hold on to one that was replaced. */
  async stats(): Promise<StatsResult> {
    const client = this.languageClient;
    if (!client) throw new Error(this.unavailableReason);
    return client.sendRequest(StatsRequest.type, {});
  }

  async restart(): Promise<void> {
    this.crashes.length = 0;
    await this.stop();
    await this.start();
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client && client.state !== State.Stopped) {
      try {
        await client.stop(5000);
      } catch (error) {
        this.log.warn(`Stopping the memory server: ${(error as Error).message}`);
      }
    }
  }

  dispose(): void {
    this.configurationWatch.dispose();
    this.statusChanged.dispose();
    this.agentSessionChanged.dispose();
    void this.stop();
  }

  private failRuntime(reason: string): void {
    this.runtimeError = reason;
    this.log.error(reason);
    this.status.show({ kind: 'failed', message: reason });
    this.statusChanged.fire();
    void vscode.window.showErrorMessage(`Engram cannot start its memory server. ${reason}`, 'Set Node Path').then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'engram.nodePath');
    });
  }

  private createClient(runtime: ServerRuntime): LanguageClient {
    const serverOptions: ServerOptions = {
      command: runtime.path,
      // Node's flags before the script: Node and Electron as Node take them there (memoryServerFlags.ts).
      args: [...MEMORY_SERVER_NODE_FLAGS, this.context.asAbsolutePath('dist/engram.js'), 'lsp', ...warmArguments()],
      transport: TransportKind.stdio,
      options: { env: { ...process.env, ...runtimeEnv(runtime.origin), ...memoryServerEnv(process.env) } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ scheme: 'file' }],
      outputChannel: this.log,
      errorHandler: this.errorHandler(),
      // Files changed on disk by other programs; VS Code's files.watcherExclude already applies.
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*') },
      initializationOptions: {
        // Hooks find this window's editor state by it (the terminal gets it as ENGRAM_WINDOW).
        windowId: vscode.env.sessionId,
        mailbox: windowMailbox(),
        ...readEngramSettings().server,
      },
      // Hover links may run these commands, and only these.
      markdown: { isTrusted: { enabledCommands: [Commands.showMemories, Commands.unpin, Commands.acceptRule] }, supportHtml: false },
    };
    return new LanguageClient('engram', 'Engram Memory Server', serverOptions, clientOptions);
  }

  /** Restarts a crashed server at most MAX_RESTARTS times within RESTART_WINDOW_MS, saying so. */
  private errorHandler(): ErrorHandler {
    return {
      error: (error) => {
        this.log.error(`Memory server connection error: ${error.message}`);
        return { action: ErrorAction.Continue, handled: true };
      },
      closed: () => {
        const now = Date.now();
        while (this.crashes.length && now - this.crashes[0]! > RESTART_WINDOW_MS) this.crashes.shift();
        this.crashes.push(now);
        if (this.crashes.length > MAX_RESTARTS) {
          const message = `The memory server stopped ${MAX_RESTARTS} times in ${RESTART_WINDOW_MS / 60_000} minutes; not restarting. Run "Engram: Restart Memory Server" after checking the Engram output.`;
          this.log.error(message);
          this.status.show({ kind: 'failed', message });
          return { action: CloseAction.DoNotRestart, message, handled: false };
        }
        this.log.warn(`The memory server stopped unexpectedly; restarting (attempt ${this.crashes.length} of ${MAX_RESTARTS}).`);
        this.status.show({ kind: 'restarting', attempt: this.crashes.length, reason: 'process exited' });
        return { action: CloseAction.Restart, handled: true };
      },
    };
  }
}
