import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';
import { z } from 'zod';
import { ActionRefusal, UnknownMemoryError } from '../actions/errors';
import { pinMemory } from '../actions/pin';
import { shareMemoryWithTeam } from '../actions/share';
import { PinError, pinConstraint } from '../constraints/pinConstraint';
import { suggestRule } from '../constraints/suggestRule';
import { MEMORY_KINDS, PIN_LEVELS } from '../memory/types';
import type { Project } from '../project';
import { TeamFileError } from '../team/shareMemory';
import {
  PIN_SCOPES,
  PinConstraintRequest,
  PinSuggestionRequest,
  RecallRequest,
  SetPinRequest,
  summarize,
  type MemorySummary,
  type PinSuggestion,
  type RecallResult,
} from '../../../contracts/protocol';
import { answerRecall, RecallInputError } from '../recall/answerRecall';
import type { CodeLensDeps } from './codeLens';

const position = z.object({ line: z.number().int().min(0), character: z.number().int().min(0) });
const range = z.object({ start: position, end: position });

const recallParams = z.object({
  uri: z.string().optional(),
  position: position.optional(),
  query: z.string().max(1_000_000).optional(),
  openUris: z.array(z.string()).max(100).optional(),
  kinds: z.array(z.enum(MEMORY_KINDS)).optional(),
  budget: z.number().int().min(0).max(1_000_000).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  sessionId: z.string().optional(),
  includeArchived: z.boolean().optional(),
});

const suggestionParams = z.object({ uri: z.string(), range });
const pinParams = suggestionParams.extend({
  rule: z.string().min(1).max(10_000),
  scope: z.enum(PIN_SCOPES),
  glob: z.string().max(1000).optional(),
  strength: z.enum(['hard', 'soft']),
  why: z.string().max(10_000).optional(),
  shared: z.boolean().optional(),
});
const setPinParams = z.object({ uri: z.string(), id: z.string(), pin: z.enum(PIN_LEVELS) });

/** Parses request params at the boundary: a malformed request gets InvalidParams saying what is wrong. */
function parse<T>(schema: z.ZodType<T>, params: unknown): T {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  throw new ResponseError(ErrorCodes.InvalidParams, parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; '));
}

/** The requests behind recall, pinning and unpinning (one handler per protocol message). */
export function registerMemoryRequests(connection: Connection, deps: CodeLensDeps, onChanged: () => void): void {
  const fileOf = (uri: string) => {
    const file = deps.projects.fileFor(uri);
    if (!file) throw new ResponseError(ErrorCodes.InvalidParams, `${uri} is not in a project Engram has open`);
    return file;
  };

  connection.onRequest(RecallRequest.type, async (raw): Promise<RecallResult> => {
    const params = parse(recallParams, raw);
    const file = params.uri ? fileOf(params.uri) : null;
    const project: Project | undefined = file?.project ?? deps.projects.openProjects()[0];
    if (!project) throw new ResponseError(ErrorCodes.InvalidRequest, 'no project is open');
    const document = params.uri ? deps.document(params.uri) : undefined;
    const openFiles = (params.openUris ?? []).flatMap((u) => {
      const open = deps.projects.fileFor(u);
      return open && open.project === project ? [open.path] : [];
    });
    const line = params.position?.line;
    // An open document's declarations are parsed once per version (as for hover), not at every recall.
    const symbol = document && file && line !== undefined && line < document.lineCount ? ((await deps.declarations.symbolAt(document, file.path, line)) ?? undefined) : undefined;
    try {
      const answer = await answerRecall(
        project,
        { query: params.query, file: file?.path, line, symbol, openFiles, kinds: params.kinds, budget: params.budget, limit: params.limit ?? 10, sessionId: params.sessionId, includeArchived: params.includeArchived },
        document ? document.getText() : undefined,
      );
      return {
        symbol: answer.symbol,
        results: answer.results.map((r) => ({ memory: summarize(r.memory), score: r.score, explanation: r.explanation })),
        context: answer.context ? { text: answer.context.text, tokens: answer.context.tokens, ids: answer.context.items.map((i) => i.memory.id) } : null,
      };
    } catch (error) {
      if (error instanceof RecallInputError) throw new ResponseError(ErrorCodes.InvalidParams, error.message);
      throw error;
    }
  });

  connection.onRequest(PinSuggestionRequest.type, async (raw): Promise<PinSuggestion | null> => {
    const params = parse(suggestionParams, raw);
    const file = deps.projects.fileFor(params.uri);
    const document = deps.document(params.uri);
    if (!file || !document) return null;
    const { startLine, endLine } = selectedLines(params.range);
    return {
      rule: suggestRule(document.getText(), startLine, endLine),
      symbol: await deps.declarations.symbolAt(document, file.path, startLine),
      path: file.path,
    };
  });

  connection.onRequest(PinConstraintRequest.type, async (raw): Promise<MemorySummary> => {
    const params = parse(pinParams, raw);
    const file = fileOf(params.uri);
    const document = deps.document(params.uri);
    if (!document) throw new ResponseError(ErrorCodes.InvalidParams, `${params.uri} is not open`);
    const { startLine, endLine } = selectedLines(params.range);
    try {
      const memory = pinConstraint(file.project, {
        path: file.path,
        text: document.getText(),
        startLine,
        endLine,
        rule: params.rule,
        scope: params.scope,
        glob: params.glob,
        strength: params.strength,
        why: params.why,
        symbol: await deps.declarations.symbolAt(document, file.path, startLine),
      });
      deps.anchors.track(params.uri, memory);
      file.project.usage.acted(memory.id);
      // Pinned for the user either way; "for the team" also writes it to the team file.
      const shared = params.shared ? shareMemoryWithTeam(file.project, memory.id).memory : memory;
      onChanged();
      return summarize(shared);
    } catch (error) {
      if (error instanceof PinError) throw new ResponseError(ErrorCodes.InvalidParams, error.message);
      if (error instanceof TeamFileError) throw new ResponseError(ErrorCodes.InvalidRequest, `Pinned for you, not shared: ${error.message}`);
      throw error;
    }
  });

  connection.onRequest(SetPinRequest.type, (raw): MemorySummary | null => {
    const params = parse(setPinParams, raw);
    const file = fileOf(params.uri);
    let result;
    try {
      result = pinMemory(file.project, params.id, params.pin, 'person');
    } catch (error) {
      // The client asks about a memory it showed; one purged since is simply gone.
      if (error instanceof UnknownMemoryError) return null;
      if (error instanceof ActionRefusal) throw new ResponseError(ErrorCodes.InvalidRequest, error.message);
      throw error;
    }
    if (result.changed) onChanged();
    if (result.team.kind === 'refused') throw new ResponseError(ErrorCodes.InvalidRequest, `Changed for you, not in the team file: ${result.team.problem}`);
    return summarize(result.memory);
  });
}

/** A selection as whole lines; one ending at column 0 of a line does not include that line. */
function selectedLines(selection: z.infer<typeof range>): { startLine: number; endLine: number } {
  const startLine = selection.start.line;
  const endLine = selection.end.line > startLine && selection.end.character === 0 ? selection.end.line - 1 : selection.end.line;
  return { startLine, endLine: Math.max(startLine, endLine) };
}
