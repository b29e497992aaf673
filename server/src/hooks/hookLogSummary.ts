import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { hookLogFile } from './hookLog';

/** What `engram doctor` says about the hooks: how many ran lately and how they ended. */
export interface HookLogSummary {
  readonly runs: number;
  /** Runs that gave Claude Code nothing because something went wrong (still exit 0: hooks fail open). */
  readonly failures: number;
  readonly byOutcome: Readonly<Record<string, number>>;
  /** The last failing line, as logged. */
  readonly lastFailure: string | null;
  /** ISO time of the last run. */
  readonly lastRun: string | null;
  /** Median duration of the runs, in ms. */
  readonly medianMs: number | null;
}

/** Only the end of the log is read: the recent runs are what tells whether hooks work now. */
const TAIL_BYTES = 64 * 1024;
const RECENT_MS = 7 * 24 * 60 * 60_000;
const FAILURES: ReadonlySet<string> = new Set(['error', 'timeout', 'bad-input', 'unknown-event']);
const LINE = /^(\S+) (\S+) (\S+) (\S+) (\d+)ms(?: (.*))?$/;

/** Summarizes hook log lines (format: hookLog.ts) from the last week. */
export function summarizeHookLog(text: string, now: number): HookLogSummary {
  const byOutcome: Record<string, number> = {};
  const durations: number[] = [];
  let lastFailure: string | null = null;
  let lastRun: string | null = null;
  for (const line of text.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const at = Date.parse(match[1]!);
    if (!Number.isFinite(at) || now - at > RECENT_MS) continue;
    const outcome = match[4]!;
    byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
    durations.push(Number(match[5]));
    lastRun = match[1]!;
    if (FAILURES.has(outcome)) lastFailure = line;
  }
  durations.sort((a, b) => a - b);
  const runs = durations.length;
  const failures = Object.entries(byOutcome).reduce((n, [outcome, count]) => n + (FAILURES.has(outcome) ? count : 0), 0);
  return { runs, failures, byOutcome, lastFailure, lastRun, medianMs: runs ? durations[Math.floor(runs / 2)]! : null };
}

/** The end of $ENGRAM_HOME/logs/hooks.log, or '' when there is none. */
export function readHookLogTail(env: NodeJS.ProcessEnv): string {
  let fd: number;
  try {
    fd = openSync(hookLogFile(env), 'r');
  } catch {
    return '';
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const text = buffer.toString('utf8');
    // A cut first line is not a whole entry.
    return size > length ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    closeSync(fd);
  }
}
