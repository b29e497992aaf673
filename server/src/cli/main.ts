import { parseArgs } from 'node:util';
import { SchemaTooNewError } from '../store/database';
import { NativeBindingError } from '../store/nativeBinding';
import { CliError, UsageError, type CliIO, type Command, type ParsedArgs } from './command';
import { compactCommand } from './commands/compact';
import { connectCommand, disconnectCommand } from './commands/connect';
import { doctorCommand } from './commands/doctor';
import { exportCommand, importCommand } from './commands/exportImport';
import { hookCommand } from './commands/hook';
import { archiveCommand, forgetCommand, restoreCommand } from './commands/forget';
import { ingestCommand } from './commands/ingest';
import { lspCommand } from './commands/lsp';
import { mcpCommand } from './commands/mcp';
import { pinCommandSpec, unpinCommandSpec } from './commands/pin';
import { purgeCommand } from './commands/purge';
import { recallCommand } from './commands/recall';
import { rememberCommand } from './commands/remember';
import { statsCommand } from './commands/stats';

export const COMMANDS: readonly Command[] = [
  doctorCommand,
  statsCommand,
  rememberCommand,
  recallCommand,
  pinCommandSpec,
  unpinCommandSpec,
  forgetCommand,
  restoreCommand,
  archiveCommand,
  purgeCommand,
  compactCommand,
  exportCommand,
  importCommand,
  ingestCommand,
  hookCommand,
  connectCommand,
  disconnectCommand,
  lspCommand,
  mcpCommand,
];

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: engram <command> [--project DIR] [options]',
    '',
    'Engram keeps what coding agents learn (decisions, constraints, why code changed) tied to your code.',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Every command takes --project DIR (default: the current directory). `engram <command> --help` for details.',
    '',
  ].join('\n');
}

function usageOf(command: Command): string {
  return `Usage: engram ${command.name} ${command.usage} [--project DIR]\n\n${command.summary}\n`;
}

/** Runs the CLI; resolves to the process exit code. Never throws. */
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.err : io.out)(overview());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    io.out(`${process.env.ENGRAM_VERSION ?? 'dev'}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`engram: unknown command "${name}"\n\n${overview()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(usageOf(command));
    return 0;
  }
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: [...rest], options: command.options, allowPositionals: true, strict: true });
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
    if (error instanceof CliError || error instanceof SchemaTooNewError || error instanceof NativeBindingError) {
      io.err(`engram ${command.name}: ${error.message}\n`);
      return 1;
    }
    io.err(`engram ${command.name}: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
