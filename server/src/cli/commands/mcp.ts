import { stringOption, type Command } from '../command';
import { openProjectFor, projectOptionSpec } from '../projectOption';

export const mcpCommand: Command = {
  name: 'mcp',
  summary: "run the MCP server over stdio: the project's memory as tools for any agent (docs/mcp.md)",
  usage: '',
  options: { ...projectOptionSpec },
  positionals: { min: 0, max: 0 },
  jit: true,
  async run(args, io) {
    // Stdout is the protocol channel: anything a library prints goes to stderr instead.
    console.log = console.info = console.debug = console.error;
    // Loaded lazily so short CLI commands do not pay for the MCP SDK.
    const { serveStdio } = await import('../../mcp/serveStdio');
    // Claude Code names the project it starts a server for; otherwise the working directory.
    const cwd = stringOption(args, 'project') === undefined ? io.env.CLAUDE_PROJECT_DIR || io.cwd : io.cwd;
    const project = openProjectFor(args, { ...io, cwd });
    // The agent keeps this stderr in its logs: what it says passes the project's redaction.
    const log = (message: string) => io.err(`engram mcp: ${project.redactor.text(message)}\n`);
    return serveStdio(project, { log, sessionId: io.env.CLAUDE_CODE_SESSION_ID || null });
  },
};
