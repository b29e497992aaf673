import { CaptureFilter } from '../capture/captureFilter';
import { MAX_CAPTURE_BYTES } from '../capture/readCapturable';
import type { Project } from '../project';
import { countSkip, planCommit, type CommitPlan, type HistoryRules, type SkipCounts } from './commitPlan';
import { memoriesOfCommit } from './commitMemories';
import { headCommit, logCommits, resolveCommit, type CommitRange } from './git';
import { GitBlobReader, type BlobContent } from './gitBlobReader';
import type { GitCommit } from './gitLogParser';
import { HistoryWriter, type ReadCommit } from './historyWriter';
import { tipPathsOf } from './tipPaths';

/** How far back a run goes. Without either, everything not yet imported that HEAD reaches. */
export interface HistoryScope {
  /** Only commits after this revision (`REV..HEAD`). */
  readonly since?: string;
  /** Only the newest N commits. */
  readonly max?: number;
}

export interface HistoryProgress {
  /** Commits this run reads (those not imported before). */
  readonly commits: number;
  readonly done: number;
  readonly memories: number;
}

export interface HistoryReport extends HistoryProgress {
  /** The commit HEAD named (null: a repository without commits). */
  readonly tip: string | null;
  /** Commits of the range found imported already. */
  readonly alreadyImported: number;
  /** Of `memories`, the summaries of bulk commits. */
  readonly summaries: number;
  /** Files of the commits read that made no memory, by reason. */
  readonly skipped: SkipCounts;
  readonly cancelled: boolean;
}

export interface HistoryImportHooks {
  /** Told how many commits the run reads, once it knows. */
  readonly onStart?: (commits: number) => void;
  /** Told after each write. */
  readonly onProgress?: (progress: HistoryProgress) => void;
  /** Asked between commits: true stops the run after the commits read so far are stored. */
  readonly isCancelled?: () => boolean;
  /** A file whose declarations could not be read (its memories are then file-level). */
  readonly onProblem?: (message: string) => void;
  /** Capture rules other than the project's settings (tests, the memory server's own settings). */
  readonly rules?: HistoryRules;
}

/** Commits planned and whose blobs are asked for at once (readAhead). */
const READ_AHEAD_COMMITS = 32;
/** A write stores at most this many memories, or what was read in this long: hooks wait for one write at most. */
const WRITE_MEMORIES = 400;
const WRITE_AFTER_MS = 250;
/** Commits checked for "already imported" per statement. */
const HANDLED_CHECK_BATCH = 5000;

/**
 * Imports the project's git history as memories (docs/history.md): every non-merge commit HEAD
 * reaches and no earlier run imported, oldest first, each file it changed a diff memory (or the
 * whole commit one summary past the bulk threshold), written in transactions of many commits.
 * Idempotent: commits are recorded as handled with their memories, and a finished run records
 * HEAD as a tip, so the next one reads only what is new (`git log HEAD --not <tips>`).
 */
export async function importHistory(project: Project, scope: HistoryScope = {}, hooks: HistoryImportHooks = {}): Promise<HistoryReport> {
  const tip = await headCommit(project.root);
  const empty: HistoryReport = { tip, commits: 0, done: 0, memories: 0, alreadyImported: 0, summaries: 0, skipped: {}, cancelled: false };
  if (tip === null) return empty;
  const knownTips = project.history.tips();
  // An explicit range looks at every commit in it again (each found imported is passed over): it
  // is how history left out before (by --since or --max) is brought in later.
  const explicit = scope.since !== undefined || scope.max !== undefined;
  const range: CommitRange = {
    tip,
    exclude: scope.since !== undefined ? [await resolveCommit(project.root, scope.since)] : explicit ? [] : knownTips,
    max: scope.max,
  };
  const all = await logCommits(project.root, range);
  const handled = handledOf(project, all);
  const toRead = all.filter((c) => !handled.has(c.sha));
  // Memories stored before this run follow the files its commits move, as capture follows a move
  // on disk; only when it reads what came after the tips (the first run's commits are older than
  // whatever was stored before it, and so are an explicit range's).
  if (!explicit && knownTips.length) followMoves(project, toRead);
  hooks.onStart?.(toRead.length);

  const rules = hooks.rules ?? {
    filter: new CaptureFilter(project.root, { exclude: project.captureSettings.exclude, onWarning: hooks.onProblem }),
    bulkThreshold: project.captureSettings.bulkThreshold,
  };
  const tipPaths = tipPathsOf(all);
  const writer = new HistoryWriter(project);
  const blobs = new GitBlobReader(project.root, MAX_CAPTURE_BYTES);
  const progress = { commits: toRead.length, done: 0, memories: 0 };
  const skipped: SkipCounts = {};
  let summaries = 0;
  let cancelled = false;
  let pending: ReadCommit[] = [];
  let pendingMemories = 0;
  let pendingSince = performance.now();
  const flush = () => {
    progress.memories += writer.write(pending);
    progress.done += pending.length;
    pending = [];
    pendingMemories = 0;
    pendingSince = performance.now();
    hooks.onProgress?.({ ...progress });
  };
  try {
    for (let start = 0; start < toRead.length && !cancelled; start += READ_AHEAD_COMMITS) {
      const plans = toRead.slice(start, start + READ_AHEAD_COMMITS).map((commit) => planCommit(commit, tipPaths, rules));
      const contents = readAhead(plans, blobs);
      for (const plan of plans) {
        if (hooks.isCancelled?.()) {
          cancelled = true;
          break;
        }
        const made = await memoriesOfCommit(plan, contents, project.redactor, hooks.onProblem ?? (() => undefined));
        for (const [reason, count] of Object.entries(made.skipped)) countSkip(skipped, reason as keyof SkipCounts, count);
        summaries += made.memories.filter((m) => m.kind === 'summary').length;
        pending.push({ sha: plan.commit.sha, memories: made.memories });
        pendingMemories += made.memories.length;
        if (pendingMemories >= WRITE_MEMORIES || performance.now() - pendingSince >= WRITE_AFTER_MS) flush();
      }
    }
    if (pending.length) flush();
  } finally {
    blobs.close();
  }
  // Only a finished run vouches for the tip's whole history (a --since or --max run: as far back as asked).
  if (!cancelled) project.history.addTip(tip);
  if (progress.memories && project.store.termStats.isStale()) project.store.termStats.recount();
  return { ...progress, tip, alreadyImported: handled.size, summaries, skipped, cancelled };
}

/** Asks git for every blob the plans diff, at once: git reads them while the commits before are diffed. */
function readAhead(plans: readonly CommitPlan[], blobs: GitBlobReader): Map<string, Promise<BlobContent>> {
  const contents = new Map<string, Promise<BlobContent>>();
  for (const plan of plans) {
    if (plan.kind !== 'files') continue;
    for (const file of plan.files) {
      for (const blob of [file.before, file.after]) {
        if (blob === null || contents.has(blob)) continue;
        const content = blobs.read(blob);
        // A failure is thrown where the blob is awaited; one read ahead and never awaited (a cancel) is dropped.
        content.catch(() => undefined);
        contents.set(blob, content);
      }
    }
  }
  return contents;
}

function handledOf(project: Project, commits: readonly GitCommit[]): Set<string> {
  const handled = new Set<string>();
  for (let i = 0; i < commits.length; i += HANDLED_CHECK_BATCH) {
    for (const sha of project.history.handled(commits.slice(i, i + HANDLED_CHECK_BATCH).map((c) => c.sha))) handled.add(sha);
  }
  return handled;
}

/** Renames of the commits about to be read, applied in order to the memories stored before. */
function followMoves(project: Project, commits: readonly GitCommit[]): void {
  for (const commit of commits) {
    for (const change of commit.changes) {
      if (change.status === 'renamed' && change.oldPath !== null && change.path !== null) project.store.renamePath(change.oldPath, change.path);
    }
  }
}
