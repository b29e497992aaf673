import type { CaptureFilter } from '../capture/captureFilter';
import { isNullBlob, type FileChange, type FileMode, type GitCommit } from './gitLogParser';

/** Why a file of a commit made no memory. */
export type SkipReason = 'excluded' | 'not-a-regular-file' | 'path-not-utf8' | 'too-large' | 'binary' | 'invalid-utf8' | 'missing' | 'unchanged';

export type SkipCounts = Partial<Record<SkipReason, number>>;

/** The capture rules a commit goes through: the same exclusions and bulk threshold as changes on disk. */
export interface HistoryRules {
  readonly filter: Pick<CaptureFilter, 'exclusion'>;
  /** More capturable files than this in one commit make one summary memory. */
  readonly bulkThreshold: number;
}

/** A file of a commit to diff: blob ids of its two sides (null where the file did not exist, or was not a regular file). */
export interface PlannedFile {
  /** The path the commit changed. */
  readonly path: string;
  /** The same file at the tip of the history read (tipPaths.ts): what the memory is tagged with. */
  readonly tipPath: string;
  /** Set when the commit moved the file here. */
  readonly movedFrom: string | null;
  readonly before: string | null;
  readonly after: string | null;
}

/** What a commit becomes: a memory per file, or one summary of many files. */
export type CommitPlan =
  | { readonly kind: 'files'; readonly commit: GitCommit; readonly files: readonly PlannedFile[]; readonly skipped: SkipCounts }
  | { readonly kind: 'bulk'; readonly commit: GitCommit; readonly tipPaths: readonly string[]; readonly skipped: SkipCounts };

export function countSkip(counts: SkipCounts, reason: SkipReason, by = 1): void {
  counts[reason] = (counts[reason] ?? 0) + by;
}

const isRegular = (mode: FileMode) => mode === 'file' || mode === 'executable';

/** The blob of one side of a change, when that side is a regular file. */
function side(blob: string, mode: FileMode): string | null {
  return isRegular(mode) && !isNullBlob(blob) ? blob : null;
}

/**
 * Decides, without reading any content, what a commit's files become: files outside the capture
 * rules (excluded or .gitignored by their path then or now, links, submodules, paths that are not
 * UTF-8) are counted as skipped; more than the bulk threshold of the rest make one summary.
 */
export function planCommit(commit: GitCommit, tipPaths: ReadonlyMap<FileChange, string>, rules: HistoryRules): CommitPlan {
  const skipped: SkipCounts = {};
  const files: PlannedFile[] = [];
  for (const change of commit.changes) {
    if (change.path === null || (change.status === 'renamed' && change.oldPath === null)) {
      countSkip(skipped, 'path-not-utf8');
      continue;
    }
    const tipPath = tipPaths.get(change) ?? change.path;
    if (rules.filter.exclusion(change.path) || (tipPath !== change.path && rules.filter.exclusion(tipPath))) {
      countSkip(skipped, 'excluded');
      continue;
    }
    // A copy is a new file (its source is not changed); a created file has nothing before it.
    const existedBefore = change.status !== 'added' && change.status !== 'copied';
    const before = existedBefore ? side(change.oldBlob, change.oldMode) : null;
    const after = change.status === 'deleted' ? null : side(change.newBlob, change.newMode);
    if (before === null && after === null) {
      countSkip(skipped, 'not-a-regular-file');
      continue;
    }
    files.push({ path: change.path, tipPath, movedFrom: change.status === 'renamed' ? change.oldPath : null, before, after });
  }
  if (files.length > rules.bulkThreshold) return { kind: 'bulk', commit, tipPaths: files.map((f) => f.tipPath), skipped };
  return { kind: 'files', commit, files, skipped };
}
