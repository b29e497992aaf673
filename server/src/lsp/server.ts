import { CodeLensRefreshRequest, createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind, type Connection } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { type AgentSessionActivity, CancelBackfillNotification, GetMemoriesRequest, ResumeBackfillNotification, ServerStatusNotification, StatsRequest, summarize, type ServerStatusParams, type StatsResult } from '../../../contracts/protocol';
import { MemoriesChangedNotification } from '../../../contracts/viewProtocol';
import { AnchorKeeper } from '../anchors/anchorKeeper';
import { compact } from '../capacity/compact';
import { DocumentDeclarations } from './documentDeclarations';
import { documentPath } from './documentPath';
import { registerMemoryRequests } from './memoryRequests';
import { registerViewRequests } from './viewRequests';
import { refreshHookShim, registerClaudeRequests } from './claudeRequests';
import { ChangeCapture } from './changeCapture';
import type { Project } from '../project';
import { provideCodeLenses } from './codeLens';
import { prepareHover, provideHover } from './hover';
import { configFile, writeEngramConfig } from '../config/engramConfig';
import { parseInitializationOptions } from './initializationOptions';
import { ProjectRegistry } from './projectRegistry';
import { openMailbox, type MailboxAnswer, type MailboxListener } from '../mailbox/mailboxServer';
import type { MailboxRequest } from '../mailbox/mailboxProtocol';
import { nextTurn } from './backgroundUpkeep';
import { termStatsJob } from './termStatsUpkeep';
import { termSetsJob } from './termSetsUpkeep';
import { listingStatesJob } from './listingStatesUpkeep';
import { textIndexJob } from './textIndexUpkeep';
import { redactionSweepJob } from './redactionSweepUpkeep';
import { BackgroundJobs, type BackgroundJob } from './backgroundJobs';
import { MemoryChangeWatch } from './memoryChangeWatch';
import { TranscriptFollower } from './transcriptFollower';
import { HistoryFollower } from './historyFollower';
import { TeamFollower } from './teamFollower';
import { HubFollower } from './hubFollower';
import { withoutPassword } from '../hub/hubSettings';
import { redactConsole } from './redactedConsole';

/** A Claude Code session counts as live in the status bar for this long after Engram last gave it something. */
const AGENT_SESSION_LIVE_MS = 60 * 60_000;
/**
 * After start, when the status bar gets its first counts and the disk is compared with the
 * snapshots: not before the open editors' first hovers and CodeLenses, which come right away.
 */
const AFTER_FIRST_REQUESTS_MS = 1000;

function latestAgentSession(open: readonly Project[]): AgentSessionActivity | null {
  let latest: AgentSessionActivity | null = null;
  for (const project of open) {
    const session = project.injections.latestSession();
    if (session && Date.now() - session.lastAt < AGENT_SESSION_LIVE_MS && (!latest || session.lastAt > latest.lastAt)) {
      latest = { sessionId: session.sessionId, projectRoot: project.root, memoriesGiven: session.memories, tokensGiven: session.tokens, lastAt: session.lastAt };
    }
  }
  return latest;
}

function lineLength(document: TextDocument, line: number): number {
  return document.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$/, '').length;
}

/** Capacity is enforced a minute after start, then every ten minutes. */
const CAPACITY_FIRST_MS = 60_000;
const CAPACITY_EVERY_MS = 10 * 60_000;

/** After opening a project, when the memory server reads recall's scoring rows into memory. */
const PRELOAD_AFTER_MS = 3000;

/**
 * The long-lived memory server, one per VS Code window, speaking LSP over stdio or node-ipc
 * (`engram lsp --stdio`). It exits with its client: vscode-languageserver watches the parent pid.
 */
/** How the window's mailbox is answered (cli/mailboxCommands.ts), given the projects this server has open. */
export type MailboxAnswerer = (openAt: (root: string) => Project | null) => (request: MailboxRequest) => Promise<MailboxAnswer>;

/** `answerMailbox`: without it, the server opens no mailbox (hooks and `engram recall` then run on their own). */
export function runLanguageServer(options: { readonly answerMailbox?: MailboxAnswerer } = {}): Connection {
  const connection = createConnection(ProposedFeatures.all);
  redactConsole(connection.console);
  const anchors = new AnchorKeeper(() => {
    if (codeLensRefresh) void connection.sendRequest(CodeLensRefreshRequest.type);
  });
  // Each incremental edit also shifts the pinned selections of the document, before it is applied.
  const documents = new TextDocuments<TextDocument>({
    create: TextDocument.create,
    update: (document, changes, version) => {
      for (const change of changes) {
        if ('range' in change) anchors.edited(document.uri, [change], (_, line) => lineLength(document, line));
        TextDocument.update(document, [change], version);
        if (!('range' in change)) reopenAnchors(document);
      }
      return document;
    },
  });
  const reopenAnchors = (document: TextDocument) => {
    const file = projects.fileFor(document.uri);
    if (file) anchors.opened(document.uri, file.project, file.path, document.getText());
  };
  documents.onDidOpen((event) => reopenAnchors(event.document));
  documents.onDidSave((event) => anchors.saved(event.document.uri, event.document.getText()));
  documents.onDidClose((event) => anchors.closed(event.document.uri));
  let codeLensRefresh = false;
  let capture: ChangeCapture | undefined;
  let transcripts: TranscriptFollower | undefined;
  let history: HistoryFollower | undefined;
  let team: TeamFollower | undefined;
  let hub: HubFollower | undefined;
  let mailboxFolder: string | null = null;
  let mailbox: MailboxListener | undefined;
  let lastStatus = '';
  let windowId = `pid-${process.pid}`;
  const windowIdOf = () => windowId;

  const sendStatus = () => {
    const status = currentStatus();
    const key = JSON.stringify(status);
    if (key === lastStatus) return;
    lastStatus = key;
    void connection.sendNotification(ServerStatusNotification.type, status);
  };
  /** Memories changed (recorded, acted on, written by another process): CodeLens and the status bar catch up. */
  const memoriesChanged = () => {
    if (codeLensRefresh) void connection.sendRequest(CodeLensRefreshRequest.type);
    sendStatus();
  };
  const changes = new MemoryChangeWatch(
    () => projects.openProjects(),
    memoriesChanged,
    (project) => void connection.sendNotification(MemoriesChangedNotification.type, { projectRoot: project.root }),
    (message) => connection.console.error(message),
  );
  const jobs = new BackgroundJobs((message) => connection.console.warn(message));

  const projects = new ProjectRegistry((project) => {
    changes.opened(project);
    connection.console.info(`Opened ${project.databaseFile} for ${project.root}`);
    for (const info of project.infos) connection.console.info(info);
    for (const notice of project.notices) {
      connection.console.warn(notice);
      void connection.window.showWarningMessage(`Engram: ${notice}`);
    }
    try {
      const built = project.deferredIndexes.rebuild();
      if (built) connection.console.info(`Built ${built} indexes an interrupted \`engram import\` had set aside in ${project.root}.`);
    } catch (error) {
      connection.console.warn(`Building the indexes an interrupted import set aside failed: ${(error as Error).message}`);
    }
    // Recall's resident scoring rows (1–1.25 s at 100,000 memories), loaded in slices once the
    // window has settled rather than by the first hover or hook (which read the rows they need).
    setTimeout(async () => {
      try {
        const start = Date.now();
        const rows = await project.store.reads.loadEveryCandidate(nextTurn);
        if (rows) connection.console.info(`Loaded recall's scoring rows of ${rows} memories in ${Date.now() - start} ms.`);
      } catch (error) {
        connection.console.warn(`Loading recall's scoring rows failed (recall reads them as it goes): ${(error as Error).message}`);
      }
    }, PRELOAD_AFTER_MS).unref();
  });

  function currentStatus(): ServerStatusParams {
    const open = projects.openProjects();
    const memoryCount = open.reduce((sum, p) => sum + p.store.counts().byStatus.active, 0);
    const agentSession = latestAgentSession(open);
    const problems = projects.openProblems();
    if (problems.length) {
      return { health: 'error', message: problems.map((p) => p.message).join(' '), memoryCount, agentSession };
    }
    const teamState = hub?.state() ?? undefined;
    const teamPart = teamState ? { team: teamState } : {};
    const offline = hub?.offline();
    const notices = [...open.flatMap((p) => p.notices), ...(team?.problemMessages() ?? []), ...(offline ? [`team: offline (${offline}); local memory works, changes wait and are pushed when the hub is back.`] : [])];
    if (notices.length) return { health: 'warning', message: notices.join(' '), memoryCount, agentSession, ...teamPart };
    const where = open.length === 1 ? ` in ${open[0]!.root}` : open.length ? ` in ${open.length} projects` : '';
    return { health: 'ok', message: `Memory server running: ${memoryCount} memories${where}.${teamState ? ' Team hub: online.' : ''}`, memoryCount, agentSession, ...teamPart };
  }

  connection.onInitialize((params) => {
    const { settings, redactPatterns, recallWeights, capacity, hooks, team: teamSettings, mailbox: requestedMailbox, problem } = parseInitializationOptions(params.initializationOptions);
    mailboxFolder = requestedMailbox;
    if (problem) connection.console.warn(problem);
    // Before any project opens: every Engram process (CLI, hooks, MCP) redacts and ranks the same way.
    try {
      const captureRules = { exclude: [...settings.exclude], bulkThreshold: settings.bulkThreshold };
      if (writeEngramConfig({ capture: captureRules, redact: { patterns: [...redactPatterns] }, recall: { weights: recallWeights }, capacity, hooks, team: { ...teamSettings, url: withoutPassword(teamSettings.url) } })) connection.console.info(`Saved redaction patterns and recall weights to ${configFile()}.`);
    } catch (error) {
      connection.console.error(`Could not save redaction patterns to ${configFile()}: ${(error as Error).message}`);
    }
    const requestedWindow = (params.initializationOptions as { windowId?: unknown } | undefined)?.windowId;
    if (typeof requestedWindow === 'string' && requestedWindow) windowId = requestedWindow;
    const folders = (params.workspaceFolders ?? []).map((f) => documentPath(f.uri)).filter((f) => f !== null);
    const rootFolder = params.rootUri ? documentPath(params.rootUri) : null;
    if (folders.length === 0 && rootFolder !== null) folders.push(rootFolder);
    projects.setWorkspaceFolders(folders);
    for (const problem of projects.openProblems()) connection.console.error(`Cannot open the memory of ${problem.root}: ${problem.message}`);
    codeLensRefresh = params.capabilities.workspace?.codeLens?.refreshSupport === true;
    const onRecorded = memoriesChanged;
    capture = new ChangeCapture(connection, documents, projects, settings, onRecorded, (project, path, text) => anchors.changedOnDisk(project, path, text));
    transcripts = new TranscriptFollower(connection, projects, capture, onRecorded);
    history = new HistoryFollower(connection, projects, onRecorded);
    team = new TeamFollower(connection, projects, onRecorded);
    if (withoutPassword(teamSettings.url) !== teamSettings.url) {
      connection.console.warn('Team hub: the password in engram.team.url is used by this memory server only, and VS Code keeps it in settings.json as plain text; the CLI, hooks and MCP servers read it from ~/.pgpass or PGPASSWORD (docs/team.md).');
    }
    hub = new HubFollower(connection, projects, onRecorded, process.env, teamSettings.url);
    return {
      capabilities: {
        // Saves come without text: the server already has it through incremental sync.
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        workspace: { fileOperations: { didRename: { filters: [{ scheme: 'file', pattern: { glob: '**/*' } }] } } },
        codeLensProvider: { resolveProvider: false },
      },
      serverInfo: { name: 'engram', version: process.env.ENGRAM_VERSION ?? 'dev' },
    };
  });

  connection.onInitialized(() => {
    // The status counts every memory by kind and status (~70–135 ms at 1,000,000); the disk scan
    // reads, redacts and hashes every file (~20–40 ms for 320 files).
    setTimeout(sendStatus, AFTER_FIRST_REQUESTS_MS).unref();
    capture?.syncWithDisk(AFTER_FIRST_REQUESTS_MS);
    // Not while a history import writes to a project: it recounts at its end, and the index is built after it.
    const notImporting = () => projects.openProjects().filter((project) => !history?.importing(project));
    // Everything the server does on a timer (docs/architecture.md, "The memory server's background work").
    const table: (BackgroundJob | null | undefined)[] = [
      changes.job(),
      transcripts?.job(),
      history?.job(),
      team?.job(),
      hub?.job(),
      capacityJob(),
      termStatsJob(connection, notImporting),
      textIndexJob(connection, notImporting),
      termSetsJob(connection, notImporting),
      listingStatesJob(connection, notImporting),
      redactionSweepJob(connection, notImporting),
    ];
    jobs.start(table.filter((job): job is BackgroundJob => !!job));
    if (mailboxFolder && options.answerMailbox) {
      try {
        mailbox = openMailbox(mailboxFolder, options.answerMailbox((root) => projects.openAt(root)), connection.console);
        // An exit without a shutdown request must not leave the mailbox behind either.
        process.once('exit', () => mailbox?.close());
      } catch (error) {
        connection.console.warn(`Cannot answer hooks in ${mailboxFolder}: ${(error as Error).message}; they start their own process instead.`);
      }
    }
    refreshHookShim(connection);
  });

  /** Now and then, each project's capacity is enforced on the capture queue (docs/capacity.md). */
  function capacityJob(): BackgroundJob {
    const run = () => {
      for (const project of projects.openProjects()) {
        void capture?.serialize(`keeping ${project.root} within capacity`, async () => {
          const report = compact(project, project.capacity);
          const consolidated = report.consolidation.groups.length;
          const archived = report.watermarks.archived.length;
          if (!consolidated && !archived) return;
          connection.console.info(`Capacity: ${consolidated} summaries of old diffs, ${archived} memories archived in ${project.root}.`);
          sendStatus();
        });
      }
    };
    return { name: 'capacity', firstMs: CAPACITY_FIRST_MS, everyMs: CAPACITY_EVERY_MS, run };
  }

  connection.onNotification(CancelBackfillNotification.type, (params) => transcripts?.cancelBackfill(params.id));
  connection.onNotification(ResumeBackfillNotification.type, () => transcripts?.resumeBackfill());

  const declarations = new DocumentDeclarations();
  documents.onDidClose((event) => declarations.forget(event.document.uri));
  const editorDeps = { projects, anchors, declarations, document: (uri: string) => documents.get(uri) };
  // After the open is handled: the first hover on the document then finds it parsed.
  documents.onDidOpen((event) => {
    setImmediate(() => prepareHover(editorDeps, event.document).catch((error: Error) => connection.console.warn(`Preparing hovers of ${event.document.uri} failed: ${error.message}`)));
  });
  connection.onHover((params) => provideHover(editorDeps, params));
  connection.onCodeLens((params) => provideCodeLenses(editorDeps, params));
  registerClaudeRequests(connection, editorDeps, windowIdOf);
  registerMemoryRequests(connection, editorDeps, memoriesChanged);
  registerViewRequests(connection, { ...editorDeps, hubSearch: () => hub?.searchAccess() ?? null, changes }, memoriesChanged);

  connection.onRequest(StatsRequest.type, (): StatsResult => ({
    projects: projects.openProjects().map((p) => ({ root: p.root, databaseFile: p.databaseFile, schemaVersion: p.store.schemaVersion(), ...p.store.counts() })),
    runtime: { node: process.version, abi: process.versions.modules, pid: process.pid },
  }));

  connection.onRequest(GetMemoriesRequest.type, (params) => {
    const file = projects.fileFor(params.uri);
    if (!file) return [];
    return params.ids.flatMap((id) => {
      const memory = file.project.store.get(id);
      return memory ? [summarize(memory)] : [];
    });
  });

  connection.onShutdown(async () => {
    mailbox?.close();
    jobs.stop();
    await hub?.stop();
    // Before the projects close: a history import thread writes to them.
    await history?.stop();
    projects.closeAll();
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}
