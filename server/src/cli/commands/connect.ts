import { connectClaude, disconnectClaude, type ConnectResult } from '../../claude/connector';
import { UnreadableSettingsError } from '../../claude/jsonFile';
import { CliError, UsageError, type CliIO, type Command, type ParsedArgs } from '../command';
import { projectOptionSpec, withProject } from '../projectOption';

function report(io: CliIO, args: ParsedArgs, result: ConnectResult, verb: string): void {
  if (args.values.json) {
    io.out(`${JSON.stringify(result)}\n`);
    return;
  }
  io.out(result.changed.length ? `${verb}: ${result.changed.join(', ')}\n` : 'Nothing to change.\n');
  for (const backup of result.backups) io.out(`  backup: ${backup}\n`);
  io.out(`Hooks: ${result.hooks.length ? result.hooks.join(', ') : 'none'}; MCP server: ${result.mcp ?? 'not registered'}.\n`);
}

function agentOf(args: ParsedArgs): void {
  if (args.positionals[0] !== 'claude') throw new UsageError('the only agent Engram connects to is "claude" (Claude Code)');
}

function guard<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof UnreadableSettingsError) throw new CliError(error.message);
    throw error;
  }
}

export const connectCommand: Command = {
  name: 'connect',
  summary: "connect Claude Code: Engram's hooks in .claude/settings.local.json and its MCP server (idempotent, backed up)",
  usage: 'claude [--share] [--yes] [--json]',
  options: { ...projectOptionSpec, share: { type: 'boolean' }, yes: { type: 'boolean' }, json: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  run(args, io) {
    agentOf(args);
    return withProject(args, io, (project) => {
      const result = guard(() => connectClaude(project.root, io.env, { share: args.values.share === true }));
      report(io, args, result, 'Connected Claude Code to Engram');
      return 0;
    });
  },
};

export const disconnectCommand: Command = {
  name: 'disconnect',
  summary: 'remove exactly what `engram connect claude` added',
  usage: 'claude [--json]',
  options: { ...projectOptionSpec, json: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  run(args, io) {
    agentOf(args);
    return withProject(args, io, (project) => {
      const result = guard(() => disconnectClaude(project.root, io.env));
      report(io, args, result, 'Disconnected');
      return 0;
    });
  },
};
