import { statSync } from 'node:fs';
import { pluginDefersToConnector } from '../claude/frontDoor';
import { openProject, type Project } from '../project';
import type { AssembledContext } from '../recall/contextAssembly';
import type { GivenContext } from '../store/injectionStore';
import { resolveProjectRoot } from '../paths/engramPaths';
import { applyTeamFile } from '../team/applyTeamFile';
import { teamFileStamp } from '../team/teamFile';
import { currentEditor, promptContext, sessionStartContext } from './hookContext';
import { HOOK_EVENTS, type HookEvent, type HookInput } from './hookInput';

/** What a hook answered, or why it did nothing at all. */
export type HookOutcome =
  | {
      readonly kind: 'answered';
      /** What to print on stdout (the hook's JSON), or null for nothing. */
      readonly stdout: string | null;
      /** For the hook log: what happened. */
      readonly summary: string;
      /** The writes to make once the output went out (the injection log); says how they went when that is news. */
      readonly afterOutput: () => string | null;
    }
  | { readonly kind: 'refused'; readonly reason: string }
  /** The plugin's hook, where the connector's hook for the same event runs: it does nothing (claude/frontDoor.ts). */
  | { readonly kind: 'deferred'; readonly reason: string };

/** Time an ingesting hook keeps back from its limit to store its place, close the database and exit. */
const INGEST_STOP_MARGIN_MS = 400;
/**
 * How long logging what a context hook gave may wait for another writer (an `engram import`, a
 * long transaction) before it is left in the backlog for the next write: the answer is already
 * out, but Claude Code takes it only when the hook exits.
 */
const INJECTION_LOG_WAIT_MS = 100;

/** The project a hook runs for: its cwd (Claude Code's), else the project VS Code's terminal named. */
function projectRootOf(input: HookInput, env: NodeJS.ProcessEnv): string {
  return input.cwd ?? env.CLAUDE_PROJECT_DIR ?? env.ENGRAM_PROJECT ?? process.cwd();
}

function isFolder(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}

function additionalContext(event: HookEvent, context: AssembledContext): string | null {
  if (!context.text) return null;
  return JSON.stringify({ hookSpecificOutput: { hookEventName: HOOK_EVENTS[event], additionalContext: context.text } });
}

/**
 * Logs what was given, so the session is never given it twice and the user can see it — with
 * what earlier hooks left in the backlog, even when this one gave nothing; says when it had to
 * be left for later.
 */
function logGiven(project: Project, given: GivenContext): string | null {
  const worthLogging = given.items.length > 0 || given.forgetEarlier;
  const logged = project.injections.record(worthLogging ? given : null, (entry) => project.usage.shown(entry.items.map((i) => i.memoryId), entry.at), INJECTION_LOG_WAIT_MS);
  return logged === 'deferred' ? 'injection log deferred: the database is busy' : null;
}

function givenBy(event: HookEvent, sessionId: string, context: AssembledContext, now: number, forgetEarlier: boolean): GivenContext {
  return { sessionId, event, items: context.items.map((i) => ({ memoryId: i.memory.id, tokens: i.tokens })), at: now, forgetEarlier };
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

export interface HookRunOptions {
  /** When the hook started: its time limit counts from here. */
  readonly started: number;
  readonly now?: number;
  readonly open?: ProjectOpener;
}

type Answer = Omit<Extract<HookOutcome, { kind: 'answered' }>, 'kind' | 'afterOutput'> & { readonly given?: GivenContext };

/**
 * A session starts from the team file as the checkout has it, also when no memory server follows
 * the file (a terminal without VS Code): applying it is idempotent and one transaction. Projects
 * without the file (most) pay one stat, not the scan for team marks; a file removed whole is
 * applied by the memory server or `engram team status`. A file that cannot be applied now leaves
 * the context as the store has it.
 */
function followTeamFile(project: Project): void {
  try {
    if (teamFileStamp(project.root) !== 'none') applyTeamFile(project);
  } catch {
    // The next session start, the memory server or `engram team status` applies it.
  }
}

async function answer(event: HookEvent, input: HookInput, project: Project, env: NodeJS.ProcessEnv, started: number, now: number): Promise<Answer> {
  const deadline = started + project.hookSettings.timeoutMs - INGEST_STOP_MARGIN_MS;
  switch (event) {
    case 'session-start': {
      const source = input.source ?? 'startup';
      followTeamFile(project);
      const editor = currentEditor(project, env.ENGRAM_WINDOW, now);
      const context = sessionStartContext(project, input.session_id, source, editor, project.hookSettings.sessionStartBudget, now);
      // After a compaction the agent lost what it was given: it may be given it again.
      const given = givenBy(event, input.session_id, context, now, source === 'compact');
      return { stdout: additionalContext(event, context), summary: `${source}: ${context.items.length} memories, ${context.tokens} tokens`, given };
    }
    case 'user-prompt-submit': {
      const editor = currentEditor(project, env.ENGRAM_WINDOW, now);
      const context = promptContext(project, input.session_id, input.prompt ?? '', editor, project.hookSettings.promptBudget, now);
      return { stdout: additionalContext(event, context), summary: `${context.items.length} memories, ${context.tokens} tokens`, given: givenBy(event, input.session_id, context, now, false) };
    }
    case 'pre-compact': {
      const work = await transcriptWork();
      const read = await work.ingest(project, input, deadline);
      project.sessions.compacted(input.session_id, input.trigger === 'manual' ? 'manual' : 'auto', now);
      return { stdout: null, summary: `compaction recorded, ${work.ingestSummary(read)}` };
    }
    case 'post-tool-use':
      return { stdout: null, summary: await (await transcriptWork()).recordEdit(project, input, deadline) };
    case 'stop':
    case 'session-end': {
      const work = await transcriptWork();
      return { stdout: null, summary: work.ingestSummary(await work.ingest(project, input, deadline)) };
    }
  }
}

/**
 * Runs one hook event against the project's memory; null when `open` does not serve the
 * project, `refused` when there is no project folder (nothing is created for it), `deferred`
 * when the plugin's hook steps aside for the connector's. The project
 * stays open until `afterOutput`. Throws on internal errors (the caller fails open).
 */
export async function runHook(event: HookEvent, input: HookInput, env: NodeJS.ProcessEnv, options: HookRunOptions): Promise<HookOutcome | null> {
  const folder = projectRootOf(input, env);
  if (!isFolder(folder)) return { kind: 'refused', reason: `the project folder ${folder} does not exist` };
  if (pluginDefersToConnector(resolveProjectRoot(folder, env), HOOK_EVENTS[event], env)) return { kind: 'deferred', reason: "the connector's hook runs for this project" };
  const opened = (options.open ?? openOwnProject)(folder, env);
  if (!opened) return null;
  let answered: Answer;
  try {
    answered = await answer(event, input, opened.project, env, options.started, options.now ?? Date.now());
  } catch (error) {
    opened.release();
    throw error;
  }
  const { given, ...shown } = answered;
  return {
    kind: 'answered',
    ...shown,
    afterOutput: () => {
      try {
        return given ? logGiven(opened.project, given) : null;
      } finally {
        opened.release();
      }
    },
  };
}
