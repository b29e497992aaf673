import path from 'node:path';
import { engramHome } from '../paths/engramPaths';
import { requireBundle } from './codeCache';
import type { CliIO, Command } from './command';
import { dispatch, type CommandInfo } from './dispatch';
import { startBeforeBundle } from './openingFiles';

/** A command of the `engram` executable: its help, and the bundle its code is in (scripts/build.mjs). */
export interface BundledCommand extends CommandInfo {
  /** File name of the bundle, next to the executable. */
  readonly bundle: string;
  /** Hash of the bundle's content: names its code cache. */
  readonly contentHash: string;
}

/** What every command bundle exports: its commands, and the argument parsing and error handling of `main`. */
interface CommandBundle {
  readonly runCommand: (command: Command, rest: readonly string[], io: CliIO) => Promise<number>;
  readonly [exported: string]: unknown;
}

function isCommand(value: unknown): value is Command {
  return typeof value === 'object' && value !== null && typeof (value as Command).name === 'string' && typeof (value as Command).run === 'function';
}

/**
 * The `engram` executable: like `main`, but it loads only the bundle of the command it runs,
 * through V8's code cache (kept under $ENGRAM_HOME), so a short command pays for parsing and
 * compiling its own code only, and only once per build.
 */
export function launch(argv: readonly string[], io: CliIO, commands: readonly BundledCommand[], dir: string): Promise<number> {
  return dispatch(argv, io, commands, (entry, rest) => {
    const file = path.join(dir, entry.bundle);
    startBeforeBundle(entry.name, rest);
    let bundle: CommandBundle;
    try {
      bundle = requireBundle(file, { dir: path.join(engramHome(io.env), 'code-cache'), contentHash: entry.contentHash }) as CommandBundle;
    } catch (error) {
      io.err(`engram ${entry.name}: cannot load ${file} (reinstall or rebuild Engram): ${(error as Error).stack ?? String(error)}\n`);
      return Promise.resolve(1);
    }
    const command = Object.values(bundle).find((value): value is Command => isCommand(value) && value.name === entry.name);
    if (!command) {
      io.err(`engram ${entry.name}: ${file} does not have this command (reinstall or rebuild Engram)\n`);
      return Promise.resolve(1);
    }
    return bundle.runCommand(command, rest, io);
  });
}
