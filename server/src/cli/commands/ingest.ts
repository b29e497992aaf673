import path from 'node:path';
import { ChangeRecorder } from '../../capture/recordChange';
import { ingestTranscript } from '../../transcripts/ingestTranscript';
import { findTranscripts } from '../../transcripts/transcriptFiles';
import { CliError, type Command } from '../command';
import { projectOptionSpec, withProject } from '../projectOption';

/** A transcript named on the command line: its session is the file's name (or, for a sub-agent, its folder's). */
function sessionIdOf(file: string): string {
  const parts = file.split(path.sep);
  const subagents = parts.lastIndexOf('subagents');
  return subagents > 0 ? parts[subagents - 1]! : path.basename(file, '.jsonl');
}

export const ingestCommand: Command = {
  name: 'ingest',
  summary: "read Claude Code transcripts of this project into memories (default: all of them; idempotent)",
  usage: '[PATH…] [--all] [--json]',
  options: { ...projectOptionSpec, all: { type: 'boolean' }, json: { type: 'boolean' } },
  positionals: { min: 0, max: Number.MAX_SAFE_INTEGER },
  async run(args, io) {
    return withProject(args, io, async (project) => {
      const files =
        args.positionals.length && !args.values.all
          ? args.positionals.map((p) => ({ path: path.resolve(io.cwd, p), sessionId: sessionIdOf(path.resolve(io.cwd, p)) }))
          : await findTranscripts(project.root, io.env);
      const recorder = new ChangeRecorder(project, undefined, (message) => io.err(`engram: ${message}\n`));
      const total = { files: 0, records: 0, memories: 0, unknown: 0, malformed: 0 };
      for (const file of files) {
        let result;
        try {
          result = await ingestTranscript(project, recorder, file.path, file.sessionId);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`no transcript at ${file.path}`);
          throw error;
        }
        total.files++;
        total.records += result.records;
        total.memories += result.memories;
        total.unknown += result.unknown;
        total.malformed += result.malformed;
        if (result.malformed) io.err(`engram: ${file.path}: skipped ${result.malformed} malformed lines\n`);
      }
      io.err(`engram: ingested ${total.files} transcripts: ${total.records} new records, ${total.memories} new memories\n`);
      if (args.values.json) io.out(`${JSON.stringify(total)}\n`);
      return 0;
    });
  },
};
