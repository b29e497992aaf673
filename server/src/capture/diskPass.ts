import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Project } from '../project';
import { toProjectPath } from '../paths/engramPaths';
import type { CaptureFilter } from './captureFilter';
import { recordBulkChange, type DiskChange } from './diskChanges';
import { readCapturable } from './readCapturable';
import { fileState, type ChangeRecorder } from './recordChange';
import { walkProject } from './walkProject';

export interface DiskPassOptions {
  /** A Date.now() time: the pass stops between two files when it comes, and the next pass goes on. */
  readonly deadline: number;
  /** More changed files than this become one summary memory (a checkout, a pull). */
  readonly bulkThreshold: number;
}

export interface DiskPassResult {
  /** Files walked and compared with what was last seen of them. */
  readonly checked: number;
  /** Diff memories made (changes, creations, deletions), or files in the one bulk summary. */
  readonly recorded: number;
  readonly bulk: boolean;
  /** Files seen for the first time and remembered to diff against later. */
  readonly baselines: number;
  /** Whether the whole project was compared: only then are deletions known, and the next pass starts afresh. */
  readonly finished: boolean;
}

/**
 * When the last complete pass of a project started, kept beside its database: a file with no
 * snapshot that is newer was created since, one that is older is only taken as a baseline (a
 * pass cut short by its deadline leaves such files for the next one).
 */
function markerFile(project: Project): string {
  return `${project.databaseFile}.disk-pass`;
}

function lastCompletePass(project: Project): number | null {
  try {
    const value = (JSON.parse(readFileSync(markerFile(project), 'utf8')) as { completedAt?: unknown }).completedAt;
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

function markComplete(project: Project, startedAt: number): void {
  const file = markerFile(project);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ completedAt: startedAt })}\n`);
  renameSync(temporary, file);
}

/**
 * Brings the project's snapshots in line with the disk outside VS Code (whose memory server does
 * this as files change): files changed, created or deleted by hand since they were last seen
 * become diff memories from the disk, a burst of them one summary; files never seen become
 * baselines. Bounded by `deadline`; what it did not reach, the next pass does.
 */
export async function diskPass(project: Project, recorder: ChangeRecorder, filter: CaptureFilter, options: DiskPassOptions): Promise<DiskPassResult> {
  const startedAt = Date.now();
  const since = lastCompletePass(project);
  const known = new Map(project.snapshots.list().map((s) => [s.path, s]));
  const { files, truncated } = await walkProject(project.root, filter, undefined, options.deadline);
  const changes: DiskChange[] = [];
  let checked = 0;
  let baselines = 0;
  let outOfTime = truncated;
  for (const file of files) {
    if (Date.now() >= options.deadline) {
      outOfTime = true;
      break;
    }
    const relative = toProjectPath(project.root, file);
    if (relative === null) continue;
    const snapshot = known.get(relative);
    known.delete(relative);
    const state = await fileState(file);
    checked++;
    if (!state || (snapshot && state.size === snapshot.size && Math.trunc(state.mtimeMs) === snapshot.mtimeMs)) continue;
    if (snapshot) changes.push({ path: relative, file, kind: 'changed' });
    else if (since !== null && state.mtimeMs > since) changes.push({ path: relative, file, kind: 'created' });
    else {
      const read = await readCapturable(file);
      if (read.ok && recorder.baseline(relative, read.text, state) === 'baseline') baselines++;
    }
  }
  // Known files the walk did not see are deleted, unless now excluded; only a whole walk can tell.
  if (!outOfTime) {
    for (const relative of known.keys()) {
      const file = path.join(project.root, relative);
      if (!filter.exclusion(file) && (await fileState(file)) === null) changes.push({ path: relative, file, kind: 'deleted' });
    }
  }

  if (changes.length > options.bulkThreshold) {
    await recordBulkChange(project, recorder, changes, (n) => `${n} files changed on disk since the last session (checkout, pull or mass edit)`);
    if (!outOfTime) markComplete(project, startedAt);
    return { checked, recorded: changes.length, bulk: true, baselines, finished: !outOfTime };
  }
  let recorded = 0;
  for (const change of changes) {
    if (Date.now() >= options.deadline) {
      outOfTime = true;
      break;
    }
    const read = change.kind === 'deleted' ? null : await readCapturable(change.file);
    if (read && !read.ok) continue;
    const state = read ? ((await fileState(change.file)) ?? { size: read.bytes, mtimeMs: Date.now() }) : { size: 0, mtimeMs: Date.now() };
    const outcome = await recorder.record(change.path, read ? read.text : null, 'disk', state, { isNew: change.kind === 'created' });
    if (outcome.kind === 'recorded') recorded++;
  }
  if (!outOfTime) markComplete(project, startedAt);
  return { checked, recorded, bulk: false, baselines, finished: !outOfTime };
}
