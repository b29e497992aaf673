import type { CliIO, Command } from './command';
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
import { shareCommand, teamCommand, unshareCommand } from './commands/team';
import { dispatch } from './dispatch';
import { runCommand } from './runCommand';

export const COMMANDS: readonly Command[] = [
  doctorCommand,
  statsCommand,
  rememberCommand,
  recallCommand,
  pinCommandSpec,
  unpinCommandSpec,
  shareCommand,
  unshareCommand,
  teamCommand,
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

/**
 * Runs the CLI with every command loaded; resolves to the process exit code. Never throws.
 * The `engram` executable does the same through `launch`, loading only the command it runs.
 */
export function main(argv: readonly string[], io: CliIO): Promise<number> {
  return dispatch(argv, io, COMMANDS, (command, rest) => runCommand(command, rest, io));
}
