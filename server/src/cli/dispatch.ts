import type { CliIO, Command } from './command';

/** What the CLI knows of a command before loading its code: enough for help and dispatch. */
export type CommandInfo = Pick<Command, 'name' | 'summary' | 'usage'>;

export function overview(commands: readonly CommandInfo[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: engram <command> [--project DIR] [options]',
    '',
    'Engram keeps what coding agents learn (decisions, constraints, why code changed) tied to your code.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Every command takes --project DIR (default: the current directory). `engram <command> --help` for details.',
    '',
  ].join('\n');
}

export function usageOf(command: CommandInfo): string {
  return `Usage: engram ${command.name} ${command.usage} [--project DIR]\n\n${command.summary}\n`;
}

/**
 * The CLI up to the point where a command must run: help, --version, unknown commands and
 * `<command> --help` are answered from `commands` alone; anything else goes to `run`. Resolves
 * to the process exit code.
 */
export async function dispatch<C extends CommandInfo>(
  argv: readonly string[],
  io: CliIO,
  commands: readonly C[],
  run: (command: C, rest: readonly string[]) => Promise<number>,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.err : io.out)(overview(commands));
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    io.out(`${process.env.ENGRAM_VERSION ?? 'dev'}\n`);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`engram: unknown command "${name}"\n\n${overview(commands)}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(usageOf(command));
    return 0;
  }
  return run(command, rest);
}
