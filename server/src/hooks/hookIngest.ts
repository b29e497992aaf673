import path from 'node:path';
import { ChangeRecorder } from '../capture/recordChange';
import type { Project } from '../project';
import { toProjectPath } from '../paths/engramPaths';
import { editedTexts, editSourceRef, ingestTranscript, whyOf, type IngestResult } from '../transcripts/ingestTranscript';
import { parseReaderState } from '../transcripts/readerState';
import { parseToolUseResult } from '../transcripts/records';
import type { HookInput } from './hookInput';

// What the hooks that read the transcript or record an edit do (runHook.ts loads it for them only).

const EDIT_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** Reads the session's transcript in slices until it is read or `deadline` (a Date.now() time) comes. */
export async function ingest(project: Project, input: HookInput, deadline: number): Promise<IngestResult | null> {
  if (!input.transcript_path) return null;
  return ingestTranscript(project, new ChangeRecorder(project), { path: input.transcript_path, sessionId: input.session_id, kind: 'session' }, { deadline });
}

/** For the hook log: what an ingest made, and whether it left the rest for later. */
export function ingestSummary(result: IngestResult | null): string {
  if (!result) return 'no transcript';
  const made = `${result.memories} memories ingested from ${result.records} records`;
  return result.finished ? made : `${made}; stopped at the time limit, the rest is left to the memory server or the next hook`;
}

/**
 * PostToolUse of a file edit: the diff memory now, with the why from the transcript so far and
 * the same id the transcript ingest will use (so it adds nothing twice later). When the
 * transcript could not be read up to the edit in time, the why is not known yet: the edit is
 * left to the ingest that reaches it, which records it with its why.
 */
export async function recordEdit(project: Project, input: HookInput, deadline: number): Promise<string> {
  if (!input.tool_name || !EDIT_TOOLS.has(input.tool_name) || !input.tool_use_id) return 'not an edit';
  const read = await ingest(project, input, deadline);
  if (read && !read.finished) return `${ingestSummary(read)}; the edit with it`;
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
