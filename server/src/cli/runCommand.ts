import { parseArgs } from 'node:util';
import { SchemaTooNewError } from '../store/database';
import { NativeBindingError } from '../store/nativeBinding';
import { StoreError } from '../store/storeProblem';
import { CliError, UsageError, type CliIO, type Command, type ParsedArgs } from './command';
import { joinDashValues } from './dashValues';
import { usageOf } from './dispatch';

/** Parses a command's arguments and runs it; resolves to the process exit code. Never throws. */
export async function runCommand(command: Command, rest: readonly string[], io: CliIO): Promise<number> {
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: joinDashValues(rest, command.options), options: command.options, allowPositionals: true, strict: true });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const count = parsed.positionals.length;
    if (count < command.positionals.min || count > command.positionals.max) {
      throw new UsageError(count < command.positionals.min ? 'missing argument' : `unexpected argument "${parsed.positionals[command.positionals.max]}"`);
    }
    return await command.run({ values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals }, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`engram ${command.name}: ${error.message}\n\n${usageOf(command)}`);
      return 2;
    }
    if (error instanceof CliError || error instanceof StoreError || error instanceof SchemaTooNewError || error instanceof NativeBindingError) {
      io.err(`engram ${command.name}: ${error.message}\n`);
      return 1;
    }
    io.err(`engram ${command.name}: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
