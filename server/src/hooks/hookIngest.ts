import path from 'node:path';
import { ChangeRecorder } from '../capture/recordChange';
import type { Project } from '../project';
import { toProjectPath } from '../store/paths';
import { editedTexts, editSourceRef, ingestTranscript, whyOf } from '../transcripts/ingestTranscript';
import { parseReaderState } from '../transcripts/readerState';
import { parseToolUseResult } from '../transcripts/records';
import type { HookInput } from './hookInput';

// What the hooks that read the transcript or record an edit do (runHook.ts loads it for them only).

const EDIT_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

export async function ingest(project: Project, input: HookInput): Promise<number> {
  if (!input.transcript_path) return 0;
  const result = await ingestTranscript(project, new ChangeRecorder(project), { path: input.transcript_path, sessionId: input.session_id, kind: 'session' });
  return result.memories;
}

/**
 * PostToolUse of a file edit: the diff memory now, with the why from the transcript so far and
 * the same id the transcript ingest will use (so it adds nothing twice later).
 */
export async function recordEdit(project: Project, input: HookInput): Promise<string> {
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
