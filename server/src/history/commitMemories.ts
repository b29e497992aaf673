import { changedSymbols } from '../capture/changedSymbols';
import { diffTexts } from '../capture/diffTexts';
import { diffTitle, type ChangeKind } from '../capture/diffTitle';
import { checkCapturableBytes } from '../capture/readCapturable';
import type { Redactor } from '../secrets/redact';
import { completeMemory } from '../memory/newMemory';
import type { Memory } from '../memory/types';
import type { BlobContent } from './gitBlobReader';
import { countSkip, type CommitPlan, type PlannedFile, type SkipCounts, type SkipReason } from './commitPlan';
import type { GitCommit } from './gitLogParser';

/** Importance of a commit's diff memory, as an editor save's; a summary of a bulk commit less. */
const DIFF_IMPORTANCE = 0.4;
const BULK_IMPORTANCE = 0.3;
/** Files a bulk commit's summary lists and is tagged with, as the summary of a checkout on disk. */
const BULK_LIST_LIMIT = 500;
/** A bulk summary's title quotes the commit's subject up to this many characters. */
const SUBJECT_CHARS = 100;

/** The source ref of a commit's summary, and the prefix of its files' refs: `git:<sha>`. */
export function commitRef(sha: string): string {
  return `git:${sha}`;
}

/** The memories a commit made, and the files that made none. */
export interface CommitMemories {
  readonly memories: readonly Memory[];
  readonly skipped: SkipCounts;
}

/** The text of a side of a change, or why it cannot be diffed. */
type SideText = { readonly ok: true; readonly text: string | null } | { readonly ok: false; readonly reason: SkipReason };

function sideText(blob: string | null, content: BlobContent | undefined): SideText {
  if (blob === null) return { ok: true, text: null };
  if (!content || content.kind === 'missing') return { ok: false, reason: 'missing' };
  if (content.kind === 'too-large') return { ok: false, reason: 'too-large' };
  const read = checkCapturableBytes(content.bytes);
  if (!read.ok) return { ok: false, reason: read.reason === 'too-large' || read.reason === 'binary' || read.reason === 'invalid-utf8' ? read.reason : 'missing' };
  return { ok: true, text: read.text };
}

/** The message as a why: null when the commit has none. */
function whyOf(commit: GitCommit): string | null {
  const message = commit.message.trim();
  return message ? message : null;
}

/**
 * The memories of one planned commit: a diff memory per file (`Edited res.send (+3 −1) in
 * lib/response.js`, the patch as body, the message as why, at the author's time), or one summary
 * for a bulk commit. `contents` gives the blobs the plan names (GitBlobReader, read ahead).
 * Nothing is redacted here but the subject a summary's title quotes: the store redacts every
 * memory on its way in (prepareForImport), and a title must be cut from redacted text.
 */
export async function memoriesOfCommit(
  plan: CommitPlan,
  contents: ReadonlyMap<string, Promise<BlobContent>>,
  redactor: Redactor,
  onParseProblem: (message: string) => void,
): Promise<CommitMemories> {
  const skipped: SkipCounts = { ...plan.skipped };
  const { commit } = plan;
  if (plan.kind === 'bulk') return { memories: [bulkSummary(commit, plan.tipPaths, redactor)], skipped };
  const memories: Memory[] = [];
  const refs = new Set<string>();
  for (const file of plan.files) {
    const [before, after] = await Promise.all([sideOf(file.before, contents), sideOf(file.after, contents)]);
    if (!before.ok || !after.ok) {
      countSkip(skipped, !before.ok ? before.reason : (after as Extract<SideText, { ok: false }>).reason);
      continue;
    }
    const memory = await diffMemory(commit, file, before.text, after.text, onParseProblem);
    // Two files of one commit never share a path; a ref stored twice would fail the whole transaction.
    if (!memory || refs.has(memory.sourceRef!)) {
      countSkip(skipped, 'unchanged');
      continue;
    }
    refs.add(memory.sourceRef!);
    memories.push(memory);
  }
  return { memories, skipped };
}

async function sideOf(blob: string | null, contents: ReadonlyMap<string, Promise<BlobContent>>): Promise<SideText> {
  return sideText(blob, blob === null ? undefined : await contents.get(blob));
}

async function diffMemory(commit: GitCommit, file: PlannedFile, before: string | null, after: string | null, onParseProblem: (message: string) => void): Promise<Memory | null> {
  const diff = diffTexts(file.path, before, after);
  // A move with no change of content: the file's memories follow it (tipPaths.ts), nothing to remember.
  if (!diff) return null;
  const kind: ChangeKind = before === null ? 'created' : after === null ? 'deleted' : 'edited';
  const symbols = await changedSymbols(file.path, before, after, diff, (error) => onParseProblem(`Symbols of ${file.path} at ${commit.sha.slice(0, 12)} could not be read: ${error.message}`));
  const title = diffTitle(kind, file.path, symbols, diff.added, diff.removed);
  return completeMemory(
    {
      kind: 'diff',
      title: file.movedFrom ? `${title} (moved from ${file.movedFrom})` : title,
      body: diff.patch,
      why: whyOf(commit),
      source: 'git',
      sourceRef: `${commitRef(commit.sha)}:${file.path}`,
      importance: DIFF_IMPORTANCE,
      files: [file.tipPath],
      symbols,
      meta: {
        change: kind,
        added: diff.added,
        removed: diff.removed,
        truncated: diff.truncated,
        lineEndingsOnly: diff.lineEndingsOnly,
        commit: commit.sha,
        author: commit.author,
        ...(file.movedFrom ? { movedFrom: file.movedFrom } : {}),
        ...(file.tipPath !== file.path ? { path: file.path } : {}),
      },
    },
    commit.authoredAt,
  );
}

/** A vendoring, a lockfile update, a mass reformat: one memory listing the files, with the message as why. */
function bulkSummary(commit: GitCommit, tipPaths: readonly string[], redactor: Redactor): Memory {
  const paths = [...new Set(tipPaths)].sort();
  const shown = paths.slice(0, BULK_LIST_LIMIT);
  const subject = redactor.text(commit.message.split('\n', 1)[0]!.trim());
  const quoted = subject.length > SUBJECT_CHARS ? `${subject.slice(0, SUBJECT_CHARS - 1)}…` : subject;
  return completeMemory(
    {
      kind: 'summary',
      title: `${paths.length} files changed in one commit${quoted ? `: ${quoted}` : ''}`,
      body: [...shown, ...(paths.length > shown.length ? [`… and ${paths.length - shown.length} more`] : [])].join('\n'),
      why: whyOf(commit),
      source: 'git',
      sourceRef: commitRef(commit.sha),
      importance: BULK_IMPORTANCE,
      files: shown,
      meta: { bulk: true, count: paths.length, commit: commit.sha, author: commit.author },
    },
    commit.authoredAt,
  );
}
