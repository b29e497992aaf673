import path from 'node:path';
import { ChangeRecorder } from '../capture/recordChange';
import { openProject, type Project } from '../project';
import type { AssembledContext } from '../recall/contextAssembly';
import { toProjectPath } from '../store/paths';
import { editedTexts, editSourceRef, ingestTranscript, whyOf } from '../transcripts/ingestTranscript';
import { parseReaderState } from '../transcripts/readerState';
import { parseToolUseResult } from '../transcripts/records';
import { currentEditor, promptContext, sessionStartContext } from './hookContext';
import { HOOK_EVENTS, type HookEvent, type HookInput } from './hookInput';

export interface HookOutcome {
  /** What to print on stdout (the hook's JSON), or null for nothing. */
  readonly stdout: string | null;
  /** For the hook log: what happened. */
  readonly summary: string;
}

const EDIT_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** The project a hook runs for: its cwd (Claude Code's), else the project VS Code's terminal named. */
function projectRootOf(input: HookInput, env: NodeJS.ProcessEnv): string {
  return input.cwd ?? env.CLAUDE_PROJECT_DIR ?? env.ENGRAM_PROJECT ?? process.cwd();
}

function additionalContext(event: HookEvent, context: AssembledContext): string | null {
  if (!context.text) return null;
  return JSON.stringify({ hookSpecificOutput: { hookEventName: HOOK_EVENTS[event], additionalContext: context.text } });
}

/** Logs what was given, so the session is never given it twice and the user can see it. */
function logInjection(project: Project, sessionId: string, event: HookEvent, context: AssembledContext, now: number): void {
  if (!context.items.length) return;
  project.injections.log(sessionId, event, context.items.map((i) => ({ memoryId: i.memory.id, tokens: i.tokens })), now);
  project.usage.shown(context.items.map((i) => i.memory.id), now);
}

async function ingest(project: Project, input: HookInput): Promise<number> {
  if (!input.transcript_path) return 0;
  const result = await ingestTranscript(project, new ChangeRecorder(project), { path: input.transcript_path, sessionId: input.session_id, kind: 'session' });
  return result.memories;
}

/**
 * PostToolUse of a file edit: the diff memory now, with the why from the transcript so far and
 * the same id the transcript ingest will use (so it adds nothing twice later).
 */
async function recordEdit(project: Project, input: HookInput): Promise<string> {
  if (!input.tool_name || !EDIT_TOOLS.has(input.tool_name) || !input.tool_use_id) return 'not an edit';
  await ingest(project, input);
  const edit = editedTexts(parseToolUseResult(input.tool_response));
  if (!edit) return 'edit result without before/after';
  const relative = toProjectPath(project.root, path.resolve(project.root, edit.filePath));
  if (relative === null) return 'edit outside the project';
  const state = input.transcript_path ? parseReaderState(project.ingestOffsets.get(input.transcript_path)?.readerState ?? '{}') : null;
  const outcome = await new ChangeRecorder(project).recordAgentEdit(relative, edit.before, edit.after, {
    why: state ? whyOf(state) : null,
    sessionId: input.session_id,
    sourceRef: editSourceRef(input.tool_use_id),
    at: Date.now(),
  });
  return outcome.kind === 'recorded' ? `recorded ${outcome.memory.id}` : outcome.kind;
}

/** Runs one hook event against the project's memory. Throws on internal errors (the caller fails open). */
export async function runHook(event: HookEvent, input: HookInput, env: NodeJS.ProcessEnv, now: number = Date.now()): Promise<HookOutcome> {
  const project = openProject(projectRootOf(input, env), env);
  try {
    const editor = currentEditor(project, env.ENGRAM_WINDOW, now);
    switch (event) {
      case 'session-start': {
        const source = input.source ?? 'startup';
        // After a compaction the agent lost what it was given: it may be given it again.
        if (source === 'compact') project.injections.forgetSince(input.session_id, 0);
        const context = sessionStartContext(project, input.session_id, source, editor, project.hookSettings.sessionStartBudget, now);
        logInjection(project, input.session_id, event, context, now);
        return { stdout: additionalContext(event, context), summary: `${source}: ${context.items.length} memories, ${context.tokens} tokens` };
      }
      case 'user-prompt-submit': {
        const context = promptContext(project, input.session_id, input.prompt ?? '', editor, project.hookSettings.promptBudget, now);
        logInjection(project, input.session_id, event, context, now);
        return { stdout: additionalContext(event, context), summary: `${context.items.length} memories, ${context.tokens} tokens` };
      }
      case 'pre-compact': {
        const made = await ingest(project, input);
        project.sessions.compacted(input.session_id, input.trigger === 'manual' ? 'manual' : 'auto', now);
        return { stdout: null, summary: `compaction recorded, ${made} memories ingested` };
      }
      case 'post-tool-use':
        return { stdout: null, summary: await recordEdit(project, input) };
      case 'stop':
      case 'session-end':
        return { stdout: null, summary: `${await ingest(project, input)} memories ingested` };
    }
  } finally {
    project.close();
  }
}
