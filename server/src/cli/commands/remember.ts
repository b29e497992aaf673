import { readFileSync } from 'node:fs';
import path from 'node:path';
import { anchorLines } from '../../anchors/anchorFromText';
import { MEMORY_KINDS, type MemoryKind, type PinLevel } from '../../memory/types';
import { CliError, listOption, stringOption, UsageError, type Command } from '../command';
import { projectOptionSpec, projectPathOf, withProject } from '../projectOption';
import type { Project } from '../../project';
import type { Memory } from '../../memory/types';
import { applyTeamFile } from '../../team/applyTeamFile';
import { shareMemory, TeamFileError } from '../../team/shareMemory';

function shareOrExplain(project: Project, id: string): Memory {
  try {
    applyTeamFile(project);
    return shareMemory(project, id).memory;
  } catch (error) {
    if (error instanceof TeamFileError) throw new CliError(`stored ${id} for you, not shared: ${error.message}`);
    throw error;
  }
}

const TITLE_MAX = 120;

function parseLines(spec: string): { start: number; end: number } {
  const match = /^(\d+)(?:-(\d+))?$/.exec(spec);
  const start = match ? Number(match[1]) : NaN;
  const end = match?.[2] ? Number(match[2]) : start;
  if (!match || start < 1 || end < start) throw new UsageError(`--lines takes N or N-M with 1 ≤ N ≤ M, not "${spec}"`);
  return { start: start - 1, end: end - 1 };
}

function titleOf(text: string): string {
  const firstLine = text.trim().split('\n')[0]!.trim();
  return firstLine.length > TITLE_MAX ? `${firstLine.slice(0, TITLE_MAX - 1)}…` : firstLine;
}

export const rememberCommand: Command = {
  name: 'remember',
  summary: 'store a memory (prints its id)',
  usage: `--kind ${MEMORY_KINDS.join('|')} [--file F]… [--symbol S]… [--lines N-M] [--pin hard|soft] [--why W] [--title T] [--shared] [--json] TEXT`,
  options: {
    ...projectOptionSpec,
    kind: { type: 'string' },
    file: { type: 'string', multiple: true },
    symbol: { type: 'string', multiple: true },
    lines: { type: 'string' },
    pin: { type: 'string' },
    why: { type: 'string' },
    title: { type: 'string' },
    json: { type: 'boolean' },
    // For the team: also written to the project's team file (docs/team.md).
    shared: { type: 'boolean' },
  },
  positionals: { min: 1, max: 1 },
  run(args, io) {
    const kind = stringOption(args, 'kind');
    if (!kind || !(MEMORY_KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(`--kind must be one of ${MEMORY_KINDS.join(', ')}`);
    }
    const pin = stringOption(args, 'pin') ?? 'none';
    if (!['none', 'soft', 'hard'].includes(pin)) throw new UsageError('--pin must be hard or soft');
    const text = args.positionals[0]!.trim();
    if (!text) throw new UsageError('TEXT is empty');
    const lines = stringOption(args, 'lines');
    return withProject(args, io, async (project) => {
      const files = listOption(args, 'file').map((f) => projectPathOf(project, io, f));
      let anchor = null;
      if (lines !== undefined) {
        if (files.length !== 1) throw new UsageError('--lines needs exactly one --file');
        const { start, end } = parseLines(lines);
        const file = files[0]!;
        let content: string;
        try {
          content = readFileSync(path.join(project.root, file), 'utf8');
        } catch (error) {
          throw new CliError(`cannot read ${file} to anchor lines ${lines}: ${(error as Error).message}`);
        }
        try {
          anchor = anchorLines(file, content, start, end);
        } catch (error) {
          throw new CliError((error as Error).message);
        }
      }
      const memory = project.store.add({
        kind: kind as MemoryKind,
        // Redacted before its first line is cut into a title: a cut secret is not recognized.
        title: stringOption(args, 'title') ?? titleOf(project.redactor.text(text)),
        body: text,
        why: stringOption(args, 'why') ?? null,
        source: 'user',
        pin: pin as PinLevel,
        files,
        symbols: listOption(args, 'symbol'),
        anchor,
        importance: pin === 'hard' ? 1 : 0.5,
      });
      const stored = args.values.shared ? shareOrExplain(project, memory.id) : memory;
      io.out(args.values.json ? `${JSON.stringify(stored)}\n` : `${stored.id}\n`);
      return 0;
    });
  },
};
