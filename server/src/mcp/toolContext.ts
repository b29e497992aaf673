import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Project } from '../project';
import { explainStoreError, storePlace } from '../store/storeProblem';
import { answerTool } from './toolResult';

/** What every tool handler works with. */
export interface ToolContext {
  readonly project: Project;
  /** To stderr: stdout carries only protocol messages. */
  readonly log: (message: string) => void;
  /**
   * The agent session the server serves, when its client says (Claude Code sets
   * CLAUDE_CODE_SESSION_ID for the servers it starts): memories it makes carry it, and what it is
   * given is logged so hooks do not give it again.
   */
  readonly sessionId: string | null;
  /** Runs a tool body: errors become `isError` results, and the call counts as in flight until it ends. */
  answer(name: string, body: () => CallToolResult | Promise<CallToolResult>): Promise<CallToolResult>;
}

/** Counts calls in flight, so the server closes the database only once they have finished. */
export class CallTracker {
  private inFlight = 0;
  private idle: (() => void)[] = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  /** Resolves when no call is running. */
  settled(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.idle.push(resolve));
  }
}

export function toolContext(project: Project, log: (message: string) => void, sessionId: string | null, calls: CallTracker): ToolContext {
  return {
    project,
    log,
    sessionId,
    answer: (name, body) => calls.run(() => answerTool(name, log, body, (error) => explainStoreError(error, storePlace(project.databaseFile, process.env)))),
  };
}
