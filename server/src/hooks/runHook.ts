import { openProject, type Project } from '../project';
import type { AssembledContext } from '../recall/contextAssembly';
import { currentEditor, promptContext, sessionStartContext } from './hookContext';
import { HOOK_EVENTS, type HookEvent, type HookInput } from './hookInput';

export interface HookOutcome {
  /** What to print on stdout (the hook's JSON), or null for nothing. */
  readonly stdout: string | null;
  /** For the hook log: what happened. */
  readonly summary: string;
}

/** The project a hook runs for: its cwd (Claude Code's), else the project VS Code's terminal named. */
function projectRootOf(input: HookInput, env: NodeJS.ProcessEnv): string {
  return input.cwd ?? env.CLAUDE_PROJECT_DIR ?? env.ENGRAM_PROJECT ?? process.cwd();
}

function additionalContext(event: HookEvent, context: AssembledContext): string | null {
  if (!context.text) return null;
  return JSON.stringify({ hookSpecificOutput: { hookEventName: HOOK_EVENTS[event], additionalContext: context.text } });
}

/**
 * When a hook's writes (the injection log, usage) run: at once in a process of its own; after
 * the answer went out in the memory server, which takes no other request before they ran.
 */
export type RecordWrites = (write: () => void) => void;

const writeNow: RecordWrites = (write) => write();

/** Logs what was given, so the session is never given it twice and the user can see it. */
function logInjection(project: Project, sessionId: string, event: HookEvent, context: AssembledContext, now: number, record: RecordWrites): void {
  if (!context.items.length) return;
  record(() => project.transaction(() => {
    project.injections.log(sessionId, event, context.items.map((i) => ({ memoryId: i.memory.id, tokens: i.tokens })), now);
    project.usage.shown(context.items.map((i) => i.memory.id), now);
  }));
}

/**
 * Reading transcripts and recording edits, loaded only by the events that do it: the bundle
 * evaluates that code (transcripts, capture, tree-sitter) on this import, so the context events,
 * which run on every prompt, start without it.
 */
function transcriptWork(): Promise<typeof import('./hookIngest')> {
  return import('./hookIngest');
}

/** A project to run in and how to let go of it: the memory server lends its open projects (closing nothing), a process opens its own. */
export interface OpenedProject {
  readonly project: Project;
  readonly release: () => void;
}

/** Opens the project of a folder for one hook, or says (null) that this process does not serve it. */
export type ProjectOpener = (folder: string, env: NodeJS.ProcessEnv) => OpenedProject | null;

export const openOwnProject: ProjectOpener = (folder, env) => {
  const project = openProject(folder, env);
  return { project, release: () => project.close() };
};

/**
 * Runs one hook event against the project's memory; null when `open` does not serve the
 * project. Throws on internal errors (the caller fails open).
 */
export async function runHook(event: HookEvent, input: HookInput, env: NodeJS.ProcessEnv, now: number = Date.now(), open: ProjectOpener = openOwnProject, record: RecordWrites = writeNow): Promise<HookOutcome | null> {
  const opened = open(projectRootOf(input, env), env);
  if (!opened) return null;
  const { project } = opened;
  try {
    const editor = currentEditor(project, env.ENGRAM_WINDOW, now);
    switch (event) {
      case 'session-start': {
        const source = input.source ?? 'startup';
        // After a compaction the agent lost what it was given: it may be given it again.
        if (source === 'compact') project.injections.forgetSince(input.session_id, 0);
        const context = sessionStartContext(project, input.session_id, source, editor, project.hookSettings.sessionStartBudget, now);
        logInjection(project, input.session_id, event, context, now, record);
        return { stdout: additionalContext(event, context), summary: `${source}: ${context.items.length} memories, ${context.tokens} tokens` };
      }
      case 'user-prompt-submit': {
        const context = promptContext(project, input.session_id, input.prompt ?? '', editor, project.hookSettings.promptBudget, now);
        logInjection(project, input.session_id, event, context, now, record);
        return { stdout: additionalContext(event, context), summary: `${context.items.length} memories, ${context.tokens} tokens` };
      }
      case 'pre-compact': {
        const made = await (await transcriptWork()).ingest(project, input);
        project.sessions.compacted(input.session_id, input.trigger === 'manual' ? 'manual' : 'auto', now);
        return { stdout: null, summary: `compaction recorded, ${made} memories ingested` };
      }
      case 'post-tool-use':
        return { stdout: null, summary: await (await transcriptWork()).recordEdit(project, input) };
      case 'stop':
      case 'session-end':
        return { stdout: null, summary: `${await (await transcriptWork()).ingest(project, input)} memories ingested` };
    }
  } finally {
    opened.release();
  }
}
