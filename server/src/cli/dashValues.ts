import type { OptionSpec } from './command';

/**
 * The arguments with each value that starts with a dash joined to its option (`--query -pool` →
 * `--query=-pool`): node:util.parseArgs takes such a value for a mistyped option and refuses it,
 * though a query, a title or a why may well start with one. A value that is itself one of the
 * command's options (`--query --json`) is left as it is: then the value was forgotten.
 */
export function joinDashValues(args: readonly string[], options: OptionSpec): string[] {
  const takesValue = new Set<string>();
  const known = new Set<string>(['--', '-h', '--help']);
  for (const [name, spec] of Object.entries(options)) {
    known.add(`--${name}`);
    if (spec.short) known.add(`-${spec.short}`);
    if (spec.type === 'string') {
      takesValue.add(`--${name}`);
      if (spec.short) takesValue.add(`-${spec.short}`);
    }
  }
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      joined.push(...args.slice(i));
      break;
    }
    const value = args[i + 1];
    if (takesValue.has(arg) && value !== undefined && value.length > 1 && value.startsWith('-') && !known.has(value) && !known.has(value.split('=')[0]!)) {
      joined.push(arg.startsWith('--') ? `${arg}=${value}` : `${arg}${value}`);
      i++;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}
