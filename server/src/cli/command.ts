import type { ParseArgsConfig } from 'node:util';
import type { Project } from '../project';

/** Where a command writes; injected so tests and the bundle share one code path. */
export interface CliIO {
  readonly out: (text: string) => void;
  /** True once stdout's reader has gone (`engram export | head -1`): a command writing much stops early. */
  readonly outClosed?: () => boolean;
  readonly err: (text: string) => void;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Stdin, when `engram` already read it (to send it to the memory server, which did not answer). */
  readonly stdin?: { readonly text: string; readonly ended: boolean };
  /** When the command started, if before this call (time limits count from there). */
  readonly startedAt?: number;
  /** The memory server running a command lends its open project: not closed after the command. */
  readonly lentProject?: Project;
}

/** A usage mistake: the CLI prints the message and the command's usage, and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A failure the user can act on: printed without a stack trace, exit 1. */
export class CliError extends Error {
  override name = 'CliError';
}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  readonly values: Record<string, string | boolean | string[] | undefined>;
  readonly positionals: readonly string[];
}

export interface Command {
  readonly name: string;
  readonly summary: string;
  /** Usage line after `engram <name>`. */
  readonly usage: string;
  readonly options: OptionSpec;
  readonly positionals: { readonly min: number; readonly max: number };
  /**
   * Parses many inputs (a server, a bulk import): worth zod compiling each schema on first use.
   * The bundles of other commands, which parse one input and exit, turn that off (cli/jitless.ts).
   */
  readonly jit?: true;
  run(args: ParsedArgs, io: CliIO): Promise<number> | number;
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function listOption(args: ParsedArgs, name: string): string[] {
  const value = args.values[name];
  return Array.isArray(value) ? value : [];
}

export function integerOption(args: ParsedArgs, name: string, bounds: { min: number; max: number }): number | undefined {
  const raw = stringOption(args, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) {
    throw new UsageError(`--${name} takes a whole number from ${bounds.min} to ${bounds.max}, not "${raw}"`);
  }
  return value;
}
