import { CaptureFilter } from '../capture/captureFilter';
import { diskPass, type DiskPassResult } from '../capture/diskPass';
import { ChangeRecorder } from '../capture/recordChange';
import { logHook } from '../hooks/hookLog';
import { findMemoryServer } from '../mailbox/mailboxClient';
import { readEngramConfig } from '../config/engramConfig';
import type { CliIO, ParsedArgs } from './command';
import { withProject } from './projectOption';

/** Time a hook run keeps back from its limit to store what it did, close the database and exit. */
const HOOK_STOP_MARGIN_MS = 400;

function summary(result: DiskPassResult): string {
  const recorded = result.bulk ? `${result.recorded} files changed at once: one summary memory` : `${result.recorded} diff memories`;
  const rest = result.finished ? '' : '; stopped at the time limit, the next pass goes on';
  return `checked ${result.checked} files: ${recorded}, ${result.baselines} new baselines${rest}`;
}

function run(args: ParsedArgs, io: CliIO, deadline: number): Promise<DiskPassResult> {
  return withProject(args, io, (project) => {
    const recorder = new ChangeRecorder(project, undefined, (message) => io.err(`engram: ${message}\n`));
    const filter = new CaptureFilter(project.root, { exclude: project.captureSettings.exclude, onWarning: (message) => io.err(`engram: ${message}\n`) });
    return diskPass(project, recorder, filter, { deadline, bulkThreshold: project.captureSettings.bulkThreshold });
  });
}

/**
 * `engram ingest --disk`: files changed by hand since Engram last saw them, as diff memories
 * (capture/diskPass.ts). `maxMs` bounds it. As a hook (`--hook`, the plugin's SessionStart) it
 * prints nothing, always exits 0 and logs one line; it does nothing when VS Code's memory server
 * runs (ENGRAM_MAILBOX), which follows the disk itself.
 */
export async function ingestDisk(args: ParsedArgs, io: CliIO, maxMs: number | undefined, json: boolean): Promise<number> {
  const started = io.startedAt ?? Date.now();
  if (!args.values.hook) {
    const result = await run(args, io, maxMs === undefined ? Infinity : started + maxMs);
    io.err(`engram: ${summary(result)}\n`);
    if (json) io.out(`${JSON.stringify(result)}\n`);
    return 0;
  }
  const limit = maxMs ?? readEngramConfig(io.env).config.hooks.timeoutMs;
  const log = (outcome: string, detail: string) => logHook(io.env, { event: 'disk-pass', session: '-', outcome, ms: Date.now() - started, detail });
  // A hard stop, as for every hook: whatever still runs, Claude Code gets exit 0 in time.
  const stop = setTimeout(() => {
    log('timeout', `after ${limit} ms`);
    process.exit(0);
  }, limit);
  stop.unref();
  try {
    const mailbox = io.env.ENGRAM_MAILBOX ? findMemoryServer(io.env.ENGRAM_MAILBOX) : null;
    if (mailbox) {
      mailbox.close();
      log('ok', "VS Code's memory server follows the disk: nothing to do");
      return 0;
    }
    const quiet: CliIO = { ...io, out: () => undefined, err: () => undefined };
    log('ok', summary(await run(args, quiet, started + Math.max(100, limit - HOOK_STOP_MARGIN_MS))));
  } catch (error) {
    log('error', (error as Error).stack ?? String(error));
  } finally {
    clearTimeout(stop);
  }
  return 0;
}
