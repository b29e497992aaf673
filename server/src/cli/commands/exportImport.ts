import { closeSync, createWriteStream, openSync } from 'node:fs';
import path from 'node:path';
import { memoryToRecord } from '../../memory/record';
import type { Memory } from '../../memory/types';
import type { Project } from '../../project';
import { isShared } from '../../team/teamMark';
import { describeUnreadable, isDamage } from '../../store/salvageReader';
import { CliError, stringOption, type CliIO, type Command } from '../command';
import { readImportBatches } from '../import/importReader';
import { ImportReadError, writeInTransactions, type TransactionLimits } from '../import/importTransactions';
import { projectOptionSpec, withProject } from '../projectOption';

/**
 * When `engram import` commits (importTransactions.ts): at 4,000 memories, as many as one
 * transaction held before its writes followed the reader batch by batch, or once the write lock
 * has been held 0.7 s (reading and writing 4,000 takes ~0.3–0.5 s at 100,000 memories; the
 * commit then takes ~0.1–0.3 s, up to ~0.8 s when it checkpoints), well inside the busy timeout
 * of hooks and MCP servers writing at the same time.
 */
const IMPORT_TRANSACTION: TransactionLimits = { memories: 4000, lockMs: 700 };

/**
 * Every memory that can be read, oldest first: the usual scan, and where it meets a damaged page,
 * the memories it has not given yet from the salvage reader (store/salvageReader.ts). Says what
 * could not be read through `damaged`.
 */
function* readableMemories(project: Project, damaged: (report: string) => void): Generator<Memory> {
  const given = new Set<string>();
  try {
    for (const memory of project.store.all()) {
      given.add(memory.id);
      yield memory;
    }
    return;
  } catch (error) {
    if (!isDamage(error)) throw error;
  }
  const salvage = project.salvage();
  for (const [, memory] of salvage.memories((id) => given.has(id))) yield memory;
  const { unreadable, incomplete } = salvage.tally;
  const lost = unreadable ? `; ${describeUnreadable(salvage.tally)}` : '';
  const partly = incomplete ? `; ${incomplete.toLocaleString('en')} without some of their files, symbols or pinned lines` : '';
  damaged(`the memory database ${project.databaseFile} is damaged: exported ${(given.size + salvage.tally.read).toLocaleString('en')} memories${lost}${partly}. \`engram doctor --repair\` rebuilds it with every memory that can be read`);
}

function* onlyShared(memories: Iterable<Memory>): Generator<Memory> {
  for (const memory of memories) if (isShared(memory)) yield memory;
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'write every memory as JSON Lines (to stdout, or --out FILE); from a damaged database, every one that can be read',
  usage: '[--out FILE] [--shared]',
  // --shared: only the memories shared with the team (docs/team.md).
  options: { ...projectOptionSpec, out: { type: 'string' }, shared: { type: 'boolean' } },
  positionals: { min: 0, max: 0 },
  async run(args, io) {
    return withProject(args, io, async (project) => {
      const out = stringOption(args, 'out');
      let damage: string | undefined;
      const readable = readableMemories(project, (report) => (damage = report));
      const memories = args.values.shared ? onlyShared(readable) : readable;
      let count = 0;
      if (out === undefined) {
        for (const memory of memories) {
          // The reader went away (`engram export | head -1`): nothing more is wanted.
          if (io.outClosed?.()) return 0;
          io.out(`${JSON.stringify(memoryToRecord(memory))}\n`);
        }
      } else {
        const target = path.resolve(io.cwd, out);
        const stream = createWriteStream(target);
        let streamError: Error | undefined;
        const failed = new Promise<never>((_, reject) => stream.once('error', (error) => reject((streamError = error))));
        // Awaited only while waiting on the stream; a failure at another moment shows at the next wait.
        failed.catch(() => undefined);
        try {
          for (const memory of memories) {
            if (!stream.write(`${JSON.stringify(memoryToRecord(memory))}\n`)) await Promise.race([new Promise<void>((r) => stream.once('drain', () => r())), failed]);
            count++;
          }
          await Promise.race([new Promise<void>((resolve) => stream.end(() => resolve())), failed]);
        } catch (error) {
          if (error !== streamError) throw error;
          stream.destroy();
          throw new CliError(`cannot write ${target}: ${(error as Error).message}`);
        }
        if (!damage) io.err(`engram: exported ${count} memories to ${target}\n`);
      }
      if (!damage) return 0;
      io.err(`engram export: ${damage}\n`);
      return 1;
    });
  },
};

/** Never masks the import's own outcome: what cannot be built now, the memory server or the next import builds. */
function buildDeferredIndexes(project: Project, io: CliIO): void {
  try {
    project.deferredIndexes.rebuild();
  } catch (error) {
    io.err(`engram: the indexes set aside for the import are not built yet (${(error as Error).message}); the memory server or the next \`engram import\` builds them\n`);
  }
}

export const importCommand: Command = {
  name: 'import',
  summary: 'read memories from a JSON Lines export (idempotent; bad lines are reported and skipped)',
  usage: 'FILE',
  options: { ...projectOptionSpec, json: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  jit: true,
  async run(args, io) {
    const file = path.resolve(io.cwd, args.positionals[0]!);
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch (error) {
      throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
    }
    const tally = { added: 0, updated: 0, unchanged: 0, rejected: 0 };
    try {
      await withProject(args, io, async (project) => {
        // Indexes an earlier import left to build (it died half-way), then: into an empty store,
        // the secondary indexes are built after the rows (store/deferredIndexes.ts).
        project.deferredIndexes.rebuild();
        project.deferredIndexes.deferIfEmpty();
        const batches = readImportBatches(fd, { patterns: project.redactor.userPatterns, projectRoot: project.root });
        try {
          await writeInTransactions(batches, () => project.store.beginImport(), IMPORT_TRANSACTION, {
            rejected: (lines) => {
              for (const { lineNumber, error } of lines) {
                tally.rejected++;
                io.err(`engram: ${file}:${lineNumber}: skipped, ${error}\n`);
              }
            },
            committed: (outcomes) => {
              for (const outcome of outcomes) tally[outcome]++;
            },
          });
        } catch (error) {
          if (!(error instanceof ImportReadError)) throw error;
          const imported = tally.added + tally.updated + tally.unchanged;
          throw new CliError(`cannot read ${file}: ${error.message} (the ${imported} memories read before it are imported)`);
        } finally {
          // Stops the reader thread when a write failed.
          await batches.return(undefined);
          buildDeferredIndexes(project, io);
        }
        // A bulk load changes which words are common: recall's term counts follow (~0.3 s at 100,000).
        if (project.store.termStats.isStale()) project.store.termStats.recount();
        // The import pays for copying its pages into the database: when another process (the
        // memory server) has it open, closing does not, and up to 256 MB would be left to the
        // next writer's commit. Like the index build, it never masks the import's own outcome.
        try {
          project.checkpoint();
        } catch (error) {
          io.err(`engram: the imported memories are stored, but copying them from the write-ahead log into the database failed (${(error as Error).message}); the next write copies them\n`);
        }
      });
    } finally {
      closeSync(fd);
    }
    io.out(args.values.json ? `${JSON.stringify(tally)}\n` : `added ${tally.added}, updated ${tally.updated}, unchanged ${tally.unchanged}, rejected ${tally.rejected}\n`);
    // Good lines are kept; a non-zero exit still tells scripts that something was skipped.
    return tally.rejected ? 1 : 0;
  },
};
