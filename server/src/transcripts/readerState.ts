import { z } from 'zod';

/**
 * What a transcript reader carries from one read of a file to the next: the turn in progress
 * (for the why of an edit), tool calls still waiting for their results, failures still waiting
 * for a fix (gotchas), and a compaction waiting for its summary. Stored beside the file's read
 * offset, so a restart between a prompt and its edits loses nothing. Every part is bounded.
 */

const MAX_TEXT = 2000;
const MAX_PENDING_TOOLS = 200;
const MAX_OPEN_FAILURES = 50;
export const MAX_STEPS_AFTER_FAILURE = 6;

/** Built on first use: most hooks never read a transcript. */
function buildSchemas() {
  const pendingTool = z.object({
    name: z.string(),
    /** What the call acts on (`npm test`, `file:src/a.ts`): a failure and a later success of the same subject make a gotcha. */
    subject: z.string().nullable(),
    /** A short, readable form of the call (the command, the path). */
    summary: z.string(),
    /** The shell command, for Bash. */
    command: z.string().nullable().default(null),
    /** The project-relative file a file tool acts on. */
    file: z.string().nullable().default(null),
  });

  const openFailure = z.object({
    tool: z.string(),
    summary: z.string(),
    error: z.string(),
    exitCode: z.number().nullable(),
    uuid: z.string(),
    at: z.number(),
    /** What happened after it: the successful calls (edits, commands) that may have fixed it. */
    after: z.array(z.string()).default([]),
    /** Files those calls touched, project-relative where known. */
    files: z.array(z.string()).default([]),
  });

  const compaction = z.object({
    uuid: z.string(),
    at: z.number(),
    trigger: z.enum(['manual', 'auto']),
    preTokens: z.number().nullable(),
    postTokens: z.number().nullable(),
  });

  const readerStateSchema = z.object({
    prompt: z.string().nullable().default(null),
    assistantText: z.string().nullable().default(null),
    title: z.string().nullable().default(null),
    pendingTools: z.record(z.string(), pendingTool).default({}),
    openFailures: z.record(z.string(), openFailure).default({}),
    compaction: compaction.nullable().default(null),
    /** Where the Bash tool's shell is (relative to the session's cwd): it keeps its folder between calls. */
    shellDir: z.string().default(''),
  });

  return { pendingTool, openFailure, compaction, readerStateSchema };
}

type Schemas = ReturnType<typeof buildSchemas>;
let built: Schemas | undefined;
const schemas = (): Schemas => (built ??= buildSchemas());

export type PendingTool = z.infer<Schemas['pendingTool']>;
export type OpenFailure = z.infer<Schemas['openFailure']>;
export type Compaction = z.infer<Schemas['compaction']>;
export type ReaderState = z.infer<Schemas['readerStateSchema']>;

export function newReaderState(): ReaderState {
  return schemas().readerStateSchema.parse({});
}

/** The stored state, or a fresh one when it is missing or unreadable (a lost why is better than a stuck reader). */
export function parseReaderState(json: string): ReaderState {
  try {
    const parsed = schemas().readerStateSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : newReaderState();
  } catch {
    return newReaderState();
  }
}

function capText(text: string | null): string | null {
  return text === null || text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`;
}

/** Keeps the newest `max` entries of a record (insertion order is age order). */
function newest<T>(entries: Record<string, T>, max: number): Record<string, T> {
  const keys = Object.keys(entries);
  return keys.length <= max ? entries : Object.fromEntries(keys.slice(-max).map((k) => [k, entries[k]!]));
}

/**
 * The state as it may be stored, bounded. Its texts are redacted as they enter it
 * (ingestTranscript.ts), before they are cut here or a subject is derived from them — a secret
 * cut in two is not recognized, and a failure and its fix must have the same subject before and
 * after a restart; the store redacts the whole state again on its way in (IngestOffsetStore).
 */
export function serializeReaderState(state: ReaderState): string {
  const bounded: ReaderState = {
    ...state,
    prompt: capText(state.prompt),
    assistantText: capText(state.assistantText),
    pendingTools: newest(state.pendingTools, MAX_PENDING_TOOLS),
    openFailures: newest(state.openFailures, MAX_OPEN_FAILURES),
  };
  return JSON.stringify(bounded);
}
