import path from 'node:path';
import type { ChangeRecorder } from '../capture/recordChange';
import type { Project } from '../project';
import { toProjectPath } from '../store/paths';
import { readTranscriptUpdates } from './followTranscript';
import type { ToolUseResult, TranscriptRecord } from './records';

export interface IngestResult {
  readonly records: number;
  readonly memories: number;
  readonly unknown: number;
  readonly malformed: number;
  readonly rescanned: boolean;
}

const WHY_PART_MAX = 600;
const TITLE_MAX = 80;

/**
 * What the agent was doing when it used a tool: the prompt that began the turn and what it last
 * said. It spans reads (a live read often stops between a prompt and its tool results), so the
 * caller keeps one per transcript and passes it to every read of it.
 */
export interface Turn {
  prompt: string | null;
  assistantText: string | null;
}

export function newTurn(): Turn {
  return { prompt: null, assistantText: null };
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** why = the assistant's words just before the tool use, plus the prompt that began the turn. */
function whyOf(turn: Turn): string | null {
  const said = turn.assistantText ? shorten(turn.assistantText, WHY_PART_MAX) : null;
  const asked = turn.prompt ? `asked: "${shorten(turn.prompt, WHY_PART_MAX)}"` : null;
  if (said && asked) return `${said} (${asked})`;
  return said ?? (asked ? asked[0]!.toUpperCase() + asked.slice(1) : null);
}

/** The file's text before and after a Write or Edit, when the result says enough to know both. */
function editedTexts(result: ToolUseResult): { filePath: string; before: string | null; after: string } | null {
  if (result.kind === 'write') return { filePath: result.filePath, before: result.originalFile, after: result.content };
  if (result.kind === 'edit' && result.originalFile !== null) {
    const after = result.replaceAll
      ? result.originalFile.split(result.oldString).join(result.newString)
      : result.originalFile.replace(result.oldString, () => result.newString);
    return { filePath: result.filePath, before: result.originalFile, after };
  }
  return null;
}

/**
 * Reads what is new in one Claude Code transcript and turns its Write/Edit results into diff
 * memories with their why, through the same recorder as editor and disk changes. Idempotent:
 * each memory carries its record's uuid, and the read position is stored after the memories.
 */
export async function ingestTranscript(project: Project, recorder: ChangeRecorder, file: string, sessionId: string, turn: Turn = newTurn()): Promise<IngestResult> {
  const updates = await readTranscriptUpdates(file, project.ingestOffsets.get(file));
  let memories = 0;
  let first: TranscriptRecord | undefined;
  let last: TranscriptRecord | undefined;
  let title: string | null = null;
  for (const record of updates.records) {
    first ??= record;
    last = record;
    if (record.type === 'assistant') {
      for (const block of record.message.content) if (block.type === 'text' && block.text.trim()) turn.assistantText = block.text;
      continue;
    }
    if (record.type !== 'user') continue;
    const content = record.message.content;
    if (typeof content === 'string') {
      if (record.isCompactSummary) continue;
      turn.prompt = content;
      turn.assistantText = null;
      title ??= shorten(content, TITLE_MAX);
      continue;
    }
    const edit = record.toolUseResult ? editedTexts(record.toolUseResult) : null;
    if (!edit) continue;
    const relative = toProjectPath(project.root, path.resolve(project.root, edit.filePath));
    if (relative === null) continue;
    const outcome = await recorder.recordAgentEdit(relative, edit.before, edit.after, {
      why: whyOf(turn),
      sessionId: record.sessionId,
      sourceRef: `claude:${record.uuid}`,
      at: Date.parse(record.timestamp) || Date.now(),
    });
    if (outcome.kind === 'recorded') memories++;
  }
  if (first && last) {
    project.sessions.upsert({
      id: sessionId,
      agent: 'claude-code',
      startedAt: Date.parse(first.timestamp) || Date.now(),
      endedAt: Date.parse(last.timestamp) || null,
      branch: last.gitBranch ?? null,
      title,
      transcriptPath: file,
    });
  }
  project.ingestOffsets.put(updates.nextState);
  return { records: updates.records.length, memories, unknown: updates.unknown, malformed: updates.malformed, rescanned: updates.rescanned };
}
