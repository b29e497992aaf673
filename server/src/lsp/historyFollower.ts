import type { Connection } from 'vscode-languageserver/node';
import { countCommits, gitFolders, headCommit, GitError } from '../history/git';
import { headSignature } from '../history/headSignature';
import { startHistoryThread, type HistoryThread } from '../history/historyThread';
import type { Project } from '../project';
import { CancelHistoryImportNotification, HistoryOfferRequest, HistoryProgressNotification, ImportHistoryRequest, type HistoryProgressParams } from '../../../contracts/protocol';
import type { ProjectRegistry } from './projectRegistry';
import type { BackgroundJob } from './backgroundJobs';

/** HEAD and the refs are looked at this often (a few stats): new commits are picked up within about this long. */
const CHECK_MS = 2000;
/** A run that reads at least this many commits shows a cancellable progress notification. */
const VISIBLE_COMMITS = 100;

interface FollowedProject {
  readonly project: Project;
  readonly folders: { readonly gitDir: string; readonly commonDir: string };
  signature: string;
  /** Looking at HEAD, asking the user, or importing: one at a time per project. */
  busy: boolean;
  running: HistoryThread | null;
  /** HEAD moved while busy: look again when done. */
  again: boolean;
  /** Cancelled by the user: nothing runs by itself until the next start or "Import Git History". */
  paused: boolean;
  offered: boolean;
}

/**
 * The git history of the open projects, as memories (docs/history.md). At the first start in a
 * project with history, the client offers to import it (once; the answer is kept); once imported
 * (here or by `engram ingest --git`), every new commit HEAD reaches — a commit, a pull, a
 * checkout — is imported when HEAD moves. Imports run on a thread of their own
 * (history/historyThread.ts), so hover and recall are answered meanwhile.
 */
export class HistoryFollower {
  private readonly followed = new Map<string, FollowedProject>();
  /** Projects that are not the top of a git work tree. */
  private readonly ignored = new Set<string>();
  private runs = 0;
  private checking = false;
  private readonly cancels = new Map<string, HistoryThread>();

  constructor(
    private readonly connection: Connection,
    private readonly projects: ProjectRegistry,
    private readonly onImported: () => void,
  ) {
    connection.onNotification(CancelHistoryImportNotification.type, (params) => this.cancels.get(params.id)?.cancel());
    connection.onRequest(ImportHistoryRequest.type, async (params) => {
      const project = params.uri ? projects.projectFor(params.uri) : projects.openProjects()[0];
      if (!project) return { started: false, message: 'No project is open.' };
      return this.importNow(project);
    });
  }

  /**
   * Whether a history import is writing to the project: the server's own bulk upkeep (the text
   * index, term counts) waits for its end rather than redo its work after every write.
   */
  importing(project: Project): boolean {
    return this.followed.get(project.root)?.running != null;
  }

  /** Its periodic work, for the server's table of jobs (backgroundJobs.ts): at once, then every CHECK_MS. */
  job(): BackgroundJob {
    return { name: 'git history', firstMs: 0, everyMs: CHECK_MS, run: () => this.check() };
  }

  async stop(): Promise<void> {
    await Promise.all([...this.followed.values()].map((entry) => entry.running?.terminate()));
  }

  private async check(): Promise<void> {
    // A check waits for git at a project's first sight: the next one does not start meanwhile.
    if (this.checking) return;
    this.checking = true;
    try {
      await this.checkProjects();
    } finally {
      this.checking = false;
    }
  }

  private async checkProjects(): Promise<void> {
    for (const project of this.projects.openProjects()) {
      try {
        const entry = await this.follow(project);
        if (!entry) continue;
        const signature = headSignature(entry.folders);
        if (signature === entry.signature) continue;
        entry.signature = signature;
        this.consider(entry);
      } catch (error) {
        this.failed(project.root, error);
      }
    }
  }

  private failed(root: string, error: unknown): void {
    this.connection.console.error(`Following the git history of ${root} failed: ${(error as Error).stack ?? String(error)}`);
  }

  /** The project's entry; null when it is not the top of a git work tree (it is then left alone). */
  private async follow(project: Project): Promise<FollowedProject | null> {
    const known = this.followed.get(project.root);
    if (known || this.ignored.has(project.root)) return known ?? null;
    let folders;
    try {
      await headCommit(project.root);
      folders = await gitFolders(project.root);
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      this.ignored.add(project.root);
      return null;
    }
    const entry: FollowedProject = { project, folders, signature: '', busy: false, running: null, again: false, paused: false, offered: false };
    this.followed.set(project.root, entry);
    return entry;
  }

  /** HEAD may have moved: look, unless a look or a run is going on (then look again after it). */
  private consider(entry: FollowedProject): void {
    this.exclusive(entry, () => this.look(entry));
  }

  /** Runs `work` unless the project is busy (then it is looked at again once it is not); false when busy. */
  private exclusive(entry: FollowedProject, work: () => Promise<void>): boolean {
    if (entry.busy) {
      entry.again = true;
      return false;
    }
    entry.busy = true;
    entry.again = false;
    void work()
      .catch((error: unknown) => this.failed(entry.project.root, error))
      .finally(() => {
        entry.busy = false;
        if (entry.again && !entry.paused) this.consider(entry);
      });
    return true;
  }

  /** Imports what is new when the history is followed; offers to import it when that was never answered. */
  private async look(entry: FollowedProject): Promise<void> {
    const { history, root } = entry.project;
    const head = await headCommit(root);
    if (head === null) return;
    if (history.offerAnswer() === 'import' || history.tips().length) {
      if (!entry.paused && !history.tips().includes(head)) await this.run(entry, false);
      return;
    }
    if (history.offerAnswer() !== null || entry.offered) return;
    entry.offered = true;
    const commits = await countCommits(root, { tip: head, exclude: [] });
    if (!commits) return;
    const reply = await this.connection.sendRequest(HistoryOfferRequest.type, { projectRoot: root, commits });
    const answer = reply?.answer === 'import' ? 'import' : 'decline';
    history.answerOffer(answer);
    this.connection.console.info(`Import the git history of ${root}: ${answer === 'import' ? 'yes' : 'no (Engram: Import Git History or `engram ingest --git` imports it later)'}.`);
    if (answer === 'import') await this.run(entry, true);
  }

  private async importNow(project: Project): Promise<{ started: boolean; message: string }> {
    const entry = await this.follow(project);
    if (!entry) return { started: false, message: `${project.root} is not the top folder of a git repository.` };
    const started = this.exclusive(entry, async () => {
      project.history.answerOffer('import');
      entry.paused = false;
      await this.run(entry, true);
    });
    if (!started) return { started: false, message: 'Engram is already importing the history of this project, or asking whether to.' };
    return { started: true, message: `Importing the git history of ${project.root}.` };
  }

  /**
   * Runs an import on its own thread, and resolves when it ends (never rejects: a failure is
   * logged and reported). `visible` shows its progress whatever its size: the user asked for it.
   */
  private async run(entry: FollowedProject, visible: boolean): Promise<void> {
    const id = `history-${++this.runs}`;
    const root = entry.project.root;
    const started = performance.now();
    let shown = false;
    const notify = (params: HistoryProgressParams) => this.connection.sendNotification(HistoryProgressNotification.type, params);
    const thread = startHistoryThread(root, {}, {
      onStart: (commits) => {
        shown = commits > 0 && (visible || commits >= VISIBLE_COMMITS);
        if (shown) void notify({ state: 'begin', id, projectRoot: root, commits });
      },
      onProgress: (progress) => {
        if (shown) void notify({ state: 'report', id, done: progress.done, commits: progress.commits, memories: progress.memories });
      },
      onProblem: (message) => this.connection.console.warn(message),
    });
    entry.running = thread;
    this.cancels.set(id, thread);
    // Brought up to date on each query, it would index every write of the import on a request.
    entry.project.store.reads.dropTextIndex();
    try {
      const report = await thread.done;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const rest = report.cancelled ? ' (cancelled; the rest is imported at the next start)' : '';
      if (report.done || report.cancelled) this.connection.console.info(`Imported ${report.done} of ${report.commits} commits of the git history of ${root}: ${report.memories} memories in ${seconds} s${rest}.`);
      if (report.cancelled) entry.paused = true;
      if (shown) void notify({ state: 'end', id, cancelled: report.cancelled, done: report.done, memories: report.memories, error: null });
      if (report.memories) this.onImported();
    } catch (error) {
      this.connection.console.error(`Importing the git history of ${root} failed: ${(error as Error).message}`);
      if (shown) void notify({ state: 'end', id, cancelled: false, done: 0, memories: 0, error: (error as Error).message });
    } finally {
      entry.running = null;
      this.cancels.delete(id);
    }
  }
}
