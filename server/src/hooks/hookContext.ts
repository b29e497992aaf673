import { keptGoverningConstraints } from '../constraints/governing';
import { globOf } from '../constraints/scope';
import { isRuleCandidate } from '../memory/ruleCandidate';
import type { Memory, MemoryKind } from '../memory/types';
import type { Project } from '../project';
import { assembleContext, type AssembledContext } from '../recall/contextAssembly';
import { recall, type ScoredMemory } from '../recall/recall';
import type { EditorState } from '../store/editorStateStore';
import { mentionedFiles } from '../transcripts/extract/mentionedFiles';

/** More pinned constraints than this are not given at once (the budget decides the rest). */
const MAX_CONSTRAINTS = 200;
/** Editor state older than this is not where the user is any more. */
const EDITOR_STATE_MAX_AGE_MS = 12 * 60 * 60_000;
/** A prompt's full-text match must be at least this good (bm25; lower is better) to be given. */
const MIN_TEXT_RANK = -0.5;
/** …and at least this share of the best match's relevance. */
const MIN_SHARE_OF_BEST = 0.35;

function byPinThenAge(a: Memory, b: Memory): number {
  const order = { hard: 0, soft: 1, none: 2 } as const;
  return order[a.pin] - order[b.pin] || b.updatedAt - a.updatedAt;
}

/** The editor's active file and cursor, when recent and in this project. */
export function currentEditor(project: Project, windowId: string | undefined, now: number): EditorState | null {
  const state = project.editorState.get(windowId);
  if (!state?.activeFile || now - state.updatedAt > EDITOR_STATE_MAX_AGE_MS) return null;
  return state;
}

/** Hard-pinned constraints that govern any of `files`, plus project-wide and glob ones. */
function hardConstraintsFor(project: Project, files: readonly string[]): Memory[] {
  const found = new Map<string, Memory>();
  for (const file of files) for (const c of keptGoverningConstraints(project.store, file)) if (c.pin === 'hard' && !c.anchor?.stale) found.set(c.id, c);
  for (const c of project.store.untaggedConstraints()) if (c.pin === 'hard' && globOf(c) === null) found.set(c.id, c);
  return [...found.values()].sort(byPinThenAge);
}

/** Every hard-pinned constraint of the project (stale ones left out: their code is gone). */
function allHardConstraints(project: Project): Memory[] {
  return project.store.pinnedConstraints('hard', MAX_CONSTRAINTS).filter((m) => !m.anchor?.stale);
}

function memoriesOfSession(project: Project, sessionId: string, kinds: readonly MemoryKind[], limit: number): ScoredMemory[] {
  return project.store.reads.byRowids(project.store.reads.rowidsForSession(sessionId, kinds, limit)).map((memory) => ({ memory, score: 0, explanation: [], relevance: 0 }));
}

/**
 * SessionStart: the project's hard-pinned constraints, then a working set — memories of the
 * file and symbol the user is in, recent decisions and gotchas — within the budget. After a
 * compaction (`compact`): the constraints, the decisions made before it and the session's recent
 * diffs, given again even if given before (the compaction dropped them from the context).
 */
export function sessionStartContext(project: Project, sessionId: string, source: string, editor: EditorState | null, budget: number, now: number): AssembledContext {
  const weights = project.recallWeights;
  const constraints = allHardConstraints(project);
  if (source === 'compact') {
    const ranked = [
      ...project.store.pinnedConstraints('soft', MAX_CONSTRAINTS).map((memory) => ({ memory, score: 0, explanation: [], relevance: 0 })),
      ...memoriesOfSession(project, sessionId, ['decision', 'constraint'], 30),
      ...recall(project.store, { kinds: ['decision'], limit: 10 }, { weights, now }),
      ...memoriesOfSession(project, sessionId, ['diff', 'gotcha'], 20),
    ];
    return assembleContext(constraints, ranked, budget, { title: 'Engram memory (restored after compaction)' });
  }
  const ranked = [
    ...(editor ? recall(project.store, { file: editor.activeFile!, line: editor.line ?? undefined, symbol: editor.symbol ?? undefined, limit: 15 }, { weights, now }) : []),
    ...recall(project.store, { kinds: ['decision', 'gotcha'], limit: 10 }, { weights, now }),
  ];
  return assembleContext(constraints, ranked, budget, { alreadyGiven: project.injections.givenTo(sessionId) });
}

/**
 * UserPromptSubmit: constraints governing the files the prompt names (and the file the user is
 * in), then memories relevant to the prompt and to that file and symbol — only real matches, so
 * an unrelated prompt gets nothing file-specific — leaving out what the session was given.
 */
export function promptContext(project: Project, sessionId: string, prompt: string, editor: EditorState | null, budget: number, now: number): AssembledContext {
  const weights = project.recallWeights;
  const mentioned = mentionedFiles(prompt, project.root);
  const files = [...new Set([...mentioned, ...(editor?.activeFile ? [editor.activeFile] : [])])];
  const alreadyGiven = project.injections.givenTo(sessionId);
  // Rule candidates are never given (assembleContext): they must not set the bar for real matches either.
  const byText = recall(project.store, { query: prompt, limit: 20 }, { weights, now, exclude: alreadyGiven }).filter((r) => !isRuleCandidate(r.memory));
  const best = Math.max(0, ...byText.map((r) => r.relevance));
  const relevant = byText.filter((r) => r.textRank !== undefined && r.textRank <= MIN_TEXT_RANK && r.relevance >= best * MIN_SHARE_OF_BEST);
  const inFiles = mentioned.flatMap((file) => recall(project.store, { query: prompt, file, limit: 8 }, { weights, now, exclude: alreadyGiven }));
  const atCursor = editor ? recall(project.store, { query: prompt, file: editor.activeFile!, line: editor.line ?? undefined, symbol: editor.symbol ?? undefined, limit: 8 }, { weights, now, exclude: alreadyGiven }) : [];
  const ranked = [...inFiles, ...relevant, ...atCursor].sort((a, b) => b.score - a.score);
  return assembleContext(hardConstraintsFor(project, files), ranked, budget, { alreadyGiven });
}
