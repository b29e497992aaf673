import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ActionRefusal, UnknownMemoryError } from '../actions/errors';
import { PinError } from '../constraints/pinConstraint';
import { RecallInputError } from '../recall/answerRecall';
import { StoreError } from '../store/storeProblem';

/** Arguments that passed the schema but cannot be used as given; the message says what to change. */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
}

/** A tool's answer: text for the model, the same facts as structured content for programs. */
export function toolResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Errors that are the caller's to fix: shown to the model as they are, never logged as failures. */
function isInputError(error: unknown): error is Error {
  return (
    error instanceof ToolInputError ||
    error instanceof UnknownMemoryError ||
    error instanceof ActionRefusal ||
    error instanceof RecallInputError ||
    error instanceof PinError
  );
}

/**
 * Runs a tool body and turns any failure into an `isError` result, so one bad call never ends the
 * server: input errors say what to change; a locked, read-only or full store is said in one line
 * (`explain` makes it a StoreError); anything else is logged with its stack and reported.
 */
export async function answerTool(
  name: string,
  log: (message: string) => void,
  body: () => CallToolResult | Promise<CallToolResult>,
  explain: (error: unknown) => unknown = (error) => error,
): Promise<CallToolResult> {
  try {
    return await body();
  } catch (caught) {
    if (isInputError(caught)) return toolError(caught.message);
    const error = explain(caught);
    if (error instanceof StoreError) {
      log(`${name}: ${error.message}`);
      return toolError(`Engram could not run ${name}: ${error.message}. Changes are all-or-nothing, so nothing was stored half-way.`);
    }
    const code = (error as { code?: unknown }).code;
    log(`${name} failed${typeof code === 'string' ? ` (${code})` : ''}: ${(error as Error).stack ?? String(error)}`);
    return toolError(`Engram could not run ${name}: ${(error as Error).message}. Changes are all-or-nothing, so it can be retried.`);
  }
}
