import path from 'node:path';
import { ChangeRecorder } from '../../capture/recordChange';
import { ingestTranscript } from '../../transcripts/ingestTranscript';
import { syncClaudeMemoryFiles } from '../../transcripts/claudeMemoryFiles';
import { findTranscripts, type TranscriptFile } from '../../transcripts/transcriptFiles';
import { CliError, integerOption, stringOption, UsageError, type Command } from '../command';
import { ingestDisk } from '../ingestDisk';
import { ingestHistory } from '../ingestHistory';
import { projectOptionSpec, withProject } from '../projectOption';

/** A transcript named on the command line: its session is the file's name (or, for a sub-agent, its folder's). */
function transcriptAt(file: string): TranscriptFile {
  const parts = file.split(path.sep);
  const subagents = parts.lastIndexOf('subagents');
  return subagents > 0 ? { path: file, sessionId: parts[subagents - 1]!, kind: 'subagent' } : { path: file, sessionId: path.basename(file, '.jsonl'), kind: 'session' };
}

export const ingestCommand: Command = {
  name: 'ingest',
  summary: 'read Claude Code transcripts (default: all of them), with --git the git history, or with --disk files changed by hand since last seen, into memories (idempotent)',
  usage: '[PATH…] [--all] [--json] | --git [--since REV] [--max N] [--json] | --disk [--max-ms N] [--hook] [--json]',
  // --hook: run as a Claude Code hook (the plugin's SessionStart): no output, exit 0, a line in the hook log.
  options: {
    ...projectOptionSpec,
    all: { type: 'boolean' },
    json: { type: 'boolean' },
    git: { type: 'boolean' },
    since: { type: 'string' },
    max: { type: 'string' },
    disk: { type: 'boolean' },
    'max-ms': { type: 'string' },
    hook: { type: 'boolean' },
  },
  positionals: { min: 0, max: Number.MAX_SAFE_INTEGER },
  jit: true,
  async run(args, io) {
    if (args.values.disk) {
      if (args.positionals.length || args.values.all || args.values.git) throw new UsageError('--disk compares the project with what Engram last saw of it: it takes no transcripts, no --all and no --git');
      return ingestDisk(args, io, integerOption(args, 'max-ms', { min: 1, max: 86_400_000 }), args.values.json === true);
    }
    if (args.values.hook || args.values['max-ms'] !== undefined) throw new UsageError('--hook and --max-ms go with --disk');
    const since = stringOption(args, 'since');
    const max = integerOption(args, 'max', { min: 1, max: 100_000_000 });
    if (args.values.git) {
      if (args.positionals.length || args.values.all) throw new UsageError('--git reads the history of the project: it takes no transcripts and no --all');
      return withProject(args, io, (project) => ingestHistory(project, { since, max }, io, args.values.json === true));
    }
    if (since !== undefined || max !== undefined) throw new UsageError('--since and --max go with --git');
    return withProject(args, io, async (project) => {
      const files =
        args.positionals.length && !args.values.all
          ? args.positionals.map((p) => transcriptAt(path.resolve(io.cwd, p)))
          : await findTranscripts(project.root, io.env);
      const recorder = new ChangeRecorder(project, undefined, (message) => io.err(`engram: ${message}\n`));
      const total = { files: 0, records: 0, memories: 0, unknown: 0, malformed: 0 };
      for (const file of files) {
        let result;
        try {
          result = await ingestTranscript(project, recorder, file);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`no transcript at ${file.path}`);
          throw error;
        }
        total.files++;
        io.err(`engram: [${total.files}/${files.length}] ${path.basename(file.path)}: ${result.records} new records, ${result.memories} new memories\n`);
        total.records += result.records;
        total.memories += result.memories;
        total.unknown += result.unknown;
        total.malformed += result.malformed;
        if (result.malformed) io.err(`engram: ${file.path}: skipped ${result.malformed} malformed lines\n`);
      }
      const facts = await syncClaudeMemoryFiles(project, io.env);
      for (const problem of facts.problems) io.err(`engram: skipped a Claude Code memory file: ${problem}\n`);
      io.err(`engram: ingested ${total.files} transcripts: ${total.records} new records, ${total.memories} new memories\n`);
      if (facts.added + facts.updated + facts.removed) io.err(`engram: Claude Code memory files: ${facts.added} added, ${facts.updated} updated, ${facts.removed} removed\n`);
      if (args.values.json) io.out(`${JSON.stringify({ ...total, memoryFiles: { added: facts.added, updated: facts.updated, removed: facts.removed } })}\n`);
      return 0;
    });
  },
};
