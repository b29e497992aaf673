import { GitError } from '../history/git';
import { importHistory, type HistoryReport, type HistoryScope } from '../history/importHistory';
import type { Project } from '../project';
import { CliError, type CliIO } from './command';

/** How often progress is printed while the history is read. */
const PROGRESS_EVERY_MS = 2000;

function skippedText(report: HistoryReport): string {
  const parts = Object.entries(report.skipped).map(([reason, count]) => `${count} ${reason}`);
  return parts.length ? `; files without a memory: ${parts.join(', ')}` : '';
}

/** `engram ingest --git`: the project's git history into memories (docs/history.md). */
export async function ingestHistory(project: Project, scope: HistoryScope, io: CliIO, json: boolean): Promise<number> {
  const started = performance.now();
  let lastPrinted = started;
  let report: HistoryReport;
  try {
    report = await importHistory(project, scope, {
      onProgress: (progress) => {
        if (performance.now() - lastPrinted < PROGRESS_EVERY_MS) return;
        lastPrinted = performance.now();
        io.err(`engram: history: ${progress.done} of ${progress.commits} commits, ${progress.memories} memories\n`);
      },
      onProblem: (message) => io.err(`engram: ${message}\n`),
    });
  } catch (error) {
    if (error instanceof GitError) throw new CliError(error.message);
    throw error;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (report.tip === null) io.err('engram: the repository has no commits yet\n');
  else {
    const before = report.alreadyImported ? ` (${report.alreadyImported} imported before)` : '';
    io.err(`engram: imported ${report.done} commits of history${before}: ${report.memories} new memories, ${report.summaries} of them summaries of bulk commits, in ${seconds} s${skippedText(report)}\n`);
  }
  if (json) {
    const { tip, commits, done, alreadyImported, memories, summaries, skipped } = report;
    io.out(`${JSON.stringify({ tip, commits, imported: done, alreadyImported, memories, summaries, skipped, seconds: Number(seconds) })}\n`);
  }
  return 0;
}
