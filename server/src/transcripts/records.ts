import { z } from 'zod';

/**
 * The transcript records Engram reads, parsed at the boundary. Claude Code's format changes
 * between versions, so unknown fields are dropped and unknown record or block types are
 * reported, never fatal.
 */

type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/**
 * Built on first use: a hook that never reads a transcript (most of them) does not pay for
 * constructing a dozen zod schemas at startup.
 */
function buildSchemas() {
  const commonFields = {
    uuid: z.string(),
    parentUuid: z.string().nullable().default(null),
    sessionId: z.string(),
    timestamp: z.string(),
    cwd: z.string().optional(),
    gitBranch: z.string().optional(),
    isSidechain: z.boolean().default(false),
    version: z.string().optional(),
  };

  const structuredPatch = z.array(
    z.object({ oldStart: z.number(), oldLines: z.number(), newStart: z.number(), newLines: z.number(), lines: z.array(z.string()) }),
  );

  const writeResult = z
    .object({
      type: z.enum(['create', 'update']),
      filePath: z.string(),
      content: z.string(),
      structuredPatch,
      originalFile: z.string().nullable(),
    })
    .transform((r) => ({ kind: 'write' as const, ...r }));

  const editResult = z
    .object({
      filePath: z.string(),
      oldString: z.string(),
      newString: z.string(),
      originalFile: z.string().nullable(),
      structuredPatch,
      replaceAll: z.boolean().default(false),
      userModified: z.boolean().default(false),
    })
    .transform((r) => ({ kind: 'edit' as const, ...r }));

  const bashResult = z
    .object({ stdout: z.string(), stderr: z.string(), interrupted: z.boolean() })
    .transform((r) => ({ kind: 'bash' as const, ...r }));

  /** Any other file edit that reports the file before and the patch (MultiEdit, NotebookEdit, future tools). */
  const patchResult = z
    .object({ filePath: z.string(), originalFile: z.string(), structuredPatch })
    .transform((r) => ({ kind: 'patch' as const, ...r }));

  type KnownToolUseResult = z.output<typeof writeResult> | z.output<typeof editResult> | z.output<typeof bashResult> | z.output<typeof patchResult>;
  const KNOWN_TOOL_RESULTS = [writeResult, editResult, bashResult, patchResult] as const;

  /** A tool's rich result; shapes Engram does not use (MCP content, errors as strings, …) are kept as `other`. */
  const toolUseResult = z.unknown().transform((value): KnownToolUseResult | { kind: 'other'; value: unknown } => {
    for (const schema of KNOWN_TOOL_RESULTS) {
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
    }
    return { kind: 'other', value };
  });

  const otherBlock = z.object({ type: z.string() }).transform((b) => ({ type: 'other' as const, blockType: b.type }));

  const textBlock = z.object({ type: z.literal('text'), text: z.string() });

  const toolResultBlock = z.object({
    type: z.literal('tool_result'),
    tool_use_id: z.string(),
    content: z.union([z.string(), z.array(z.unknown())]).optional(),
    is_error: z.boolean().default(false),
  });

  const toolUseBlock = z.object({
    type: z.literal('tool_use'),
    id: z.string(),
    name: z.string(),
    input: z.record(z.string(), z.unknown()),
  });

  const thinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() });

  const userRecord = z.object({
    ...commonFields,
    type: z.literal('user'),
    message: z.object({
      role: z.literal('user'),
      // A string is a typed prompt (or a compact summary); an array carries tool results.
      content: z.union([z.string(), z.array(z.union([toolResultBlock, textBlock, otherBlock]))]),
    }),
    toolUseResult: toolUseResult.optional(),
    sourceToolAssistantUUID: z.string().optional(),
    isCompactSummary: z.boolean().default(false),
  });

  const assistantRecord = z.object({
    ...commonFields,
    type: z.literal('assistant'),
    message: z.object({
      // Shared by every block of one reply: Claude Code writes one record per content block.
      id: z.string(),
      role: z.literal('assistant'),
      model: z.string().optional(),
      content: z.array(z.union([textBlock, toolUseBlock, thinkingBlock, otherBlock])),
      stop_reason: z.string().nullable().optional(),
    }),
  });

  const compactBoundaryRecord = z.object({
    ...commonFields,
    type: z.literal('system'),
    subtype: z.literal('compact_boundary'),
    // Compaction restarts the parent chain; this links to the last record before it.
    logicalParentUuid: z.string().nullable().optional(),
    content: z.string().optional(),
    compactMetadata: z.object({
      trigger: z.enum(['manual', 'auto']),
      preTokens: z.number().optional(),
      postTokens: z.number().optional(),
    }),
  });

  return { toolUseResult, userRecord, assistantRecord, compactBoundaryRecord };
}

type Schemas = ReturnType<typeof buildSchemas>;
let built: Schemas | undefined;
const schemas = (): Schemas => (built ??= buildSchemas());

export type ToolUseResult = DeepReadonly<z.output<Schemas['toolUseResult']>>;

/** A tool's result as Claude Code reports it (a transcript's `toolUseResult`, a hook's `tool_response`). */
export function parseToolUseResult(value: unknown): ToolUseResult {
  return schemas().toolUseResult.parse(value);
}
export type UserRecord = DeepReadonly<z.output<Schemas['userRecord']>>;
export type AssistantRecord = DeepReadonly<z.output<Schemas['assistantRecord']>>;
export type CompactBoundaryRecord = DeepReadonly<z.output<Schemas['compactBoundaryRecord']>>;
/** Discriminated by `type`: 'user' | 'assistant' | 'system' (only the compact boundary). */
export type TranscriptRecord = UserRecord | AssistantRecord | CompactBoundaryRecord;
export type UserContentBlock = Exclude<UserRecord['message']['content'], string>[number];
export type AssistantContentBlock = AssistantRecord['message']['content'][number];

export type ParsedLine =
  | { readonly kind: 'record'; readonly record: TranscriptRecord }
  /** A record type (or `system/<subtype>`) Engram does not read: bookkeeping, attachments, … */
  | { readonly kind: 'unknown'; readonly type: string }
  | { readonly kind: 'malformed'; readonly error: string };

function schemaFor(type: string, subtype: unknown): z.ZodType<TranscriptRecord> | null {
  if (type === 'user') return schemas().userRecord;
  if (type === 'assistant') return schemas().assistantRecord;
  if (type === 'system' && subtype === 'compact_boundary') return schemas().compactBoundaryRecord;
  return null;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

/** Parses one transcript line (without its line break). */
export function parseRecord(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { kind: 'malformed', error: `not JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'malformed', error: 'not a JSON object' };
  const { type, subtype } = value as { type?: unknown; subtype?: unknown };
  if (typeof type !== 'string') return { kind: 'malformed', error: 'no string "type" field' };
  const schema = schemaFor(type, subtype);
  if (!schema) return { kind: 'unknown', type: typeof subtype === 'string' ? `${type}/${subtype}` : type };
  const parsed = schema.safeParse(value);
  if (!parsed.success) return { kind: 'malformed', error: `${type} record: ${describeIssues(parsed.error)}` };
  return { kind: 'record', record: parsed.data };
}
