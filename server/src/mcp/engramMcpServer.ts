import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Project } from '../project';
import { registerResources } from './resources';
import { toolContext, type CallTracker } from './toolContext';
import { registerConstraintsTool } from './tools/constraints';
import { registerLifecycleTools } from './tools/forget';
import { registerGetTool } from './tools/get';
import { registerPinTools } from './tools/pin';
import { registerRecallTool } from './tools/recall';
import { registerRememberTool } from './tools/remember';
import { registerStatsTool } from './tools/stats';
import { registerTimelineTool } from './tools/timeline';

/** Sent once at initialize; clients put it in the agent's system prompt. */
const INSTRUCTIONS = [
  "Engram is this project's long-term memory, shared by every agent session and the developers:",
  'decisions and their reasons, rules the code must follow (constraints), gotchas, facts, and why each change was made.',
  'Before changing a file, call `constraints` for it and `recall` what is known about the code; after learning or deciding something',
  'a later session would need, call `remember`. Ids from any tool work with `get`, `pin`, `unpin`, `forget` and `restore`.',
].join(' ');

/** Guards against a runaway payload; a memory has at most about a hundred tags. */
const MAX_INPUT_ELEMENTS = 10_000;

export interface EngramMcpOptions {
  readonly log: (message: string) => void;
  readonly sessionId: string | null;
  readonly calls: CallTracker;
}

/**
 * Engram's memory as MCP tools and resources over one project: thin handlers over the same core
 * as the CLI and the language server (recall, constraints, lifecycle, the store).
 */
export function createEngramMcpServer(project: Project, options: EngramMcpOptions): McpServer {
  const server = new McpServer(
    { name: 'engram', title: 'Engram memory', version: process.env.ENGRAM_VERSION ?? 'dev' },
    { instructions: INSTRUCTIONS, maxToolInputElements: MAX_INPUT_ELEMENTS },
  );
  const ctx = toolContext(project, options.log, options.sessionId, options.calls);
  registerRecallTool(server, ctx);
  registerRememberTool(server, ctx);
  registerConstraintsTool(server, ctx);
  registerPinTools(server, ctx);
  registerLifecycleTools(server, ctx);
  registerGetTool(server, ctx);
  registerTimelineTool(server, ctx);
  registerStatsTool(server, ctx);
  registerResources(server, project);
  return server;
}
