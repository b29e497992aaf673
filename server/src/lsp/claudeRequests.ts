import { existsSync } from 'node:fs';
import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';
import { z } from 'zod';
import { connectClaude, connectionState, disconnectClaude } from '../claude/connector';
import { UnreadableSettingsError } from '../claude/jsonFile';
import { shimPath, writeShim } from '../claude/shim';
import type { Project } from '../project';
import {
  ClaudeConnectionRequest,
  ConnectClaudeRequest,
  DisconnectClaudeRequest,
  EditorStateNotification,
  InjectionsRequest,
  summarize,
  type ClaudeConnection,
} from '../../../contracts/protocol';
import type { CodeLensDeps } from './codeLens';

const SELECTION_MAX = 2000;
const EDITOR_STATE_DEBOUNCE_MS = 150;

const connectionParams = z.object({ uri: z.string().optional() });
const editorStateParams = z.object({
  uri: z.string().nullable(),
  position: z.object({ line: z.number().int().min(0), character: z.number().int().min(0) }).nullable(),
  selection: z.string().nullable(),
});

function parse<T>(schema: z.ZodType<T>, params: unknown): T {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  throw new ResponseError(ErrorCodes.InvalidParams, parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; '));
}

/**
 * The editor side of the Claude Code integration: the editor state hooks read, connecting and
 * disconnecting Claude Code, the injection log, and keeping the hook shim pointed at this Engram.
 */
/**
 * Self-healing: once connected, hooks run $ENGRAM_HOME/bin/engram; point it at this Engram,
 * which may have moved with an extension update. Called when the server is initialized.
 */
export function refreshHookShim(connection: Connection): void {
  try {
    if (existsSync(shimPath(process.env)) && writeShim(process.env).changed) connection.console.info(`Updated ${shimPath(process.env)} to run this Engram.`);
  } catch (error) {
    connection.console.error(`Could not update ${shimPath(process.env)}: ${(error as Error).message}`);
  }
}

export function registerClaudeRequests(connection: Connection, deps: CodeLensDeps, windowId: () => string): void {
  const projectOf = (uri: string | undefined): Project => {
    // A file's URI or the workspace folder's own (what Connect Claude Code sends).
    const project = uri ? deps.projects.projectFor(uri) : deps.projects.openProjects()[0];
    if (!project) throw new ResponseError(ErrorCodes.InvalidParams, uri ? `${uri} is not in a project Engram has open` : 'no project is open');
    return project;
  };
  const guarded = (project: Project, work: () => Omit<ClaudeConnection, 'projectRoot' | 'changed' | 'backups'> & Partial<ClaudeConnection>): ClaudeConnection => {
    try {
      const result = work();
      return { projectRoot: project.root, changed: [], backups: [], ...result };
    } catch (error) {
      if (error instanceof UnreadableSettingsError) throw new ResponseError(ErrorCodes.InvalidRequest, error.message);
      throw error;
    }
  };

  connection.onRequest(ClaudeConnectionRequest.type, (raw) => {
    const project = projectOf(parse(connectionParams, raw).uri);
    return guarded(project, () => connectionState(project.root, process.env));
  });
  connection.onRequest(ConnectClaudeRequest.type, (raw) => {
    const params = parse(connectionParams.extend({ share: z.boolean() }), raw);
    const project = projectOf(params.uri);
    return guarded(project, () => connectClaude(project.root, process.env, { share: params.share }));
  });
  connection.onRequest(DisconnectClaudeRequest.type, (raw) => {
    const project = projectOf(parse(connectionParams, raw).uri);
    return guarded(project, () => disconnectClaude(project.root, process.env));
  });

  connection.onRequest(InjectionsRequest.type, (raw) => {
    const params = parse(z.object({ sessionId: z.string(), projectRoot: z.string() }), raw);
    const project = deps.projects.openAt(params.projectRoot);
    if (!project) return [];
    return project.injections.forSession(params.sessionId).map((i) => {
      const memory = project.store.get(i.memoryId);
      return { event: i.event, memoryId: i.memoryId, tokens: i.tokens, createdAt: i.createdAt, memory: memory ? summarize(memory) : null };
    });
  });

  // Where the user is, for hooks: kept per window in the project's database (hooks read one row).
  let pending: NodeJS.Timeout | undefined;
  connection.onNotification(EditorStateNotification.type, (raw) => {
    const parsed = editorStateParams.safeParse(raw);
    if (!parsed.success) return;
    clearTimeout(pending);
    pending = setTimeout(() => void storeEditorState(parsed.data), EDITOR_STATE_DEBOUNCE_MS);
  });

  async function storeEditorState(state: z.infer<typeof editorStateParams>): Promise<void> {
    const file = state.uri ? deps.projects.fileFor(state.uri) : null;
    if (!file) return;
    const document = deps.document(state.uri!);
    const line = state.position?.line ?? null;
    const symbol = document && line !== null ? await deps.declarations.symbolAt(document, file.path, line) : null;
    try {
      file.project.editorState.put({
        windowId: windowId(),
        activeFile: file.path,
        line,
        character: state.position?.character ?? null,
        symbol,
        // Redacted before it is cut to length: a cut secret is not recognized.
        selection: state.selection ? file.project.redactor.text(state.selection).slice(0, SELECTION_MAX) : null,
        updatedAt: Date.now(),
      });
    } catch (error) {
      connection.console.error(`Could not keep the editor state for hooks: ${(error as Error).message}`);
    }
  }
}
