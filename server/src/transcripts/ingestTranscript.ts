import { applyPatch, type StructuredPatch } from 'diff';
import path from 'node:path';
import type { ChangeRecorder } from '../capture/recordChange';
import type { Project } from '../project';
import { toProjectPath } from '../paths/engramPaths';
import { describeToolCall, resultText, shellDirAfter, toolFailure } from './extract/toolCalls';
import { openTranscriptReading, type ReadPoint } from './followTranscript';
import { MAX_STEPS_AFTER_FAILURE, parseReaderState, serializeReaderState, type ReaderState } from './readerState';
import type { AssistantRecord, ToolUseResult, TranscriptRecord, UserRecord } from './records';
import type { TranscriptFile } from './transcriptFiles';
import { SliceWrites } from './sliceWrites';
import { shorten, TranscriptMemories, type RecordOrigin } from './transcriptMemories';

export interface IngestResult {
  readonly records: number;
  readonly memories: number;
  readonly unknown: number;
  readonly malformed: number;
  readonly malformedExamples: readonly { readonly start: number; readonly error: string }[];
  readonly rescanned: boolean;
  /** Read to the end; false when it stopped at its deadline and left the rest for the next call. */
  readonly finished: boolean;
}

const WHY_PART_MAX = 600;
const TITLE_MAX = 80;

/** why = the assistant's words just before the tool use, plus the prompt that began the turn. */
export function whyOf(state: ReaderState): string | null {
  const said = state.assistantText ? shorten(state.assistantText, WHY_PART_MAX) : null;
  const asked = state.prompt ? `asked: "${shorten(state.prompt, WHY_PART_MAX)}"` : null;
  if (said && asked) return `${said} (${asked})`;
  return said ?? (asked ? asked[0]!.toUpperCase() + asked.slice(1) : null);
}

/** The file's text before and after a Write or Edit, when the result says enough to know both. */
export function editedTexts(result: ToolUseResult): { filePath: string; before: string | null; after: string } | null {
  if (result.kind === 'write') return { filePath: result.filePath, before: result.originalFile, after: result.content };
  if (result.kind === 'edit' && result.originalFile !== null) {
    const after = result.replaceAll
      ? result.originalFile.split(result.oldString).join(result.newString)
      : result.originalFile.replace(result.oldString, () => result.newString);
    return { filePath: result.filePath, before: result.originalFile, after };
  }
  if (result.kind === 'patch') {
    const patch: StructuredPatch = { oldFileName: result.filePath, newFileName: result.filePath, oldHeader: '', newHeader: '', hunks: result.structuredPatch.map((h) => ({ ...h, lines: [...h.lines] })) };
    const after = applyPatch(result.originalFile, patch);
    // A patch that does not apply to the reported original says nothing reliable about the change.
    return after === false ? null : { filePath: result.filePath, before: result.originalFile, after };
  }
  return null;
}

/** The diff memory's id for a tool call: the same whether it is first seen in a transcript or by a hook. */
export function editSourceRef(toolUseId: string): string {
  return `claude:tool:${toolUseId}`;
}

/** How long an ingest may run: it stops after the line being read once `deadline` (a Date.now() time) has come. */
export interface IngestLimits {
  readonly deadline?: number;
}

/**
 * A slice of the transcript ends after this many bytes or this long, whichever comes first; its
 * read position is then committed, so a process killed at any point loses at most one slice.
 */
const SLICE_BYTES = 1024 * 1024;
const SLICE_MS = 200;
/**
 * A record this long (a pasted log, a whole file) may take the rest of a hook's time, and a hook
 * stopped at its limit keeps nothing of its open slice: what came before such a record is
 * committed first, so each hook moves on.
 */
const LONG_RECORD_BYTES = 256 * 1024;

/**
 * Reads what is new in one Claude Code transcript and turns it into memories: diffs with their
 * why from Write/Edit results (through the same recorder as editor and disk changes), prompts,
 * rule and decision candidates, gotchas and compaction summaries. It works in slices: a slice's
 * memories, its session and its read position (with what the reader carries between reads) are
 * stored in one transaction, so a process killed at any point has stored all of a slice or none
 * of it. Each memory also carries the id of the record it came from and is added only once, so
 * a record read twice (another reader got there first) adds nothing twice. With a `deadline` it
 * stops between records and leaves the rest to the next call (`finished: false`).
 */
export async function ingestTranscript(project: Project, recorder: ChangeRecorder, file: Pick<TranscriptFile, 'path' | 'sessionId' | 'kind'>, limits: IngestLimits = {}): Promise<IngestResult> {
  const outOfTime = () => limits.deadline !== undefined && Date.now() >= limits.deadline;
  const nothing = { records: 0, memories: 0, unknown: 0, malformed: 0, malformedExamples: [], rescanned: false };
  if (outOfTime()) return { ...nothing, finished: false };
  const reading = await openTranscriptReading(file.path, project.ingestOffsets.get(file.path));
  if (!reading) return { ...nothing, finished: true };
  const state = parseReaderState(reading.readerState);
  const writes = new SliceWrites(project);
  const memories = new TranscriptMemories(project, writes);
  const reader = new RecordReader(project, recorder, file, state, memories, writes);
  let records = 0;
  let slice = { from: reading.from, startedAt: Date.now(), first: undefined as TranscriptRecord | undefined, last: undefined as TranscriptRecord | undefined };

  // The slice's memories, its session and its read position: all of them, or none.
  const commit = async (point: ReadPoint): Promise<void> => {
    const next = await reading.stateAt(point, serializeReaderState(state));
    const { first, last } = slice;
    writes.store(() => {
      if (first && last && file.kind === 'session') recordSession(project, file, first, last, state);
      project.ingestOffsets.put(next);
    });
  };

  let stoppedAt: number | null = null;
  let lineStart = reading.from;
  for await (const line of reading.lines) {
    if (line.record && slice.first && line.end - lineStart >= LONG_RECORD_BYTES) {
      await commit({ at: lineStart });
      slice = { from: lineStart, startedAt: Date.now(), first: undefined, last: undefined };
    }
    if (line.record) {
      slice.first ??= line.record;
      slice.last = line.record;
      records++;
      await reader.read(line.record);
    }
    if (outOfTime()) {
      stoppedAt = line.end;
      break;
    }
    if (line.end - slice.from >= SLICE_BYTES || Date.now() - slice.startedAt >= SLICE_MS) {
      await commit({ at: line.end });
      slice = { from: line.end, startedAt: Date.now(), first: undefined, last: undefined };
    }
    lineStart = line.end;
  }
  await commit(stoppedAt === null ? 'end' : { at: stoppedAt });
  return {
    records,
    memories: memories.added + reader.diffs,
    unknown: reading.unknown,
    malformed: reading.malformed,
    malformedExamples: reading.malformedExamples,
    rescanned: reading.rescanned,
    finished: stoppedAt === null,
  };
}

/** The session a transcript is of, as far as records `first` to `last` tell (a later read only widens it). */
function recordSession(project: Project, file: Pick<TranscriptFile, 'path' | 'sessionId'>, first: TranscriptRecord, last: TranscriptRecord, state: ReaderState): void {
  const known = project.sessions.get(file.sessionId);
  project.sessions.upsert({
    id: file.sessionId,
    agent: 'claude-code',
    startedAt: known?.startedAt ?? (Date.parse(first.timestamp) || Date.now()),
    endedAt: Date.parse(last.timestamp) || null,
    branch: last.gitBranch ?? known?.branch ?? null,
    title: state.title ?? known?.title ?? null,
    transcriptPath: file.path,
  });
}

/** Reads records in order, keeping the turn, pending tool calls and open failures in `state`. */
class RecordReader {
  diffs = 0;

  constructor(
    private readonly project: Project,
    private readonly recorder: ChangeRecorder,
    private readonly file: Pick<TranscriptFile, 'sessionId' | 'kind'>,
    private readonly state: ReaderState,
    private readonly memories: TranscriptMemories,
    private readonly writes: SliceWrites,
  ) {}

  async read(record: TranscriptRecord): Promise<void> {
    const origin: RecordOrigin = { uuid: record.uuid, sessionId: record.sessionId, at: Date.parse(record.timestamp) || Date.now() };
    if (record.type === 'assistant') this.assistant(record, origin);
    else if (record.type === 'user') await this.user(record, origin);
    else {
      const meta = record.compactMetadata;
      this.state.compaction = { uuid: record.uuid, at: origin.at, trigger: meta.trigger, preTokens: meta.preTokens ?? null, postTokens: meta.postTokens ?? null };
    }
  }

  private assistant(record: AssistantRecord, origin: RecordOrigin): void {
    for (const block of record.message.content) {
      if (block.type === 'text' && block.text.trim()) {
        // Decisions are cut from the redacted text: a statement alone may have lost what told its secret
        // (`$pair = "svc:…"`, then `GetBytes($pair)` lines further on).
        this.state.assistantText = this.project.redactor.text(block.text);
        this.memories.decisions(this.state.assistantText, 'assistant', origin, this.memories.promptFiles(this.state.prompt));
      } else if (block.type === 'tool_use') {
        // Redacted before it is described: the subject, summary and command are kept in the stored state.
        const command = block.name === 'Bash' && typeof block.input.command === 'string' ? this.project.redactor.text(block.input.command) : null;
        const call = describeToolCall(block.name, command === null ? block.input : { ...block.input, command }, this.state.shellDir);
        if (command !== null) this.state.shellDir = shellDirAfter(command, this.state.shellDir);
        const relative = call.filePath ? this.projectPath(call.filePath) : null;
        this.state.pendingTools[block.id] = { name: block.name, subject: call.subject, summary: relative ? `${block.name} ${relative}` : call.summary, command, file: relative };
      }
    }
  }

  private async user(record: UserRecord, origin: RecordOrigin): Promise<void> {
    const content = record.message.content;
    if (typeof content === 'string' || !content.some((b) => b.type === 'tool_result')) {
      const text = typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
      if (record.isCompactSummary) {
        this.memories.compactionSummary(text, this.state.compaction, origin);
        this.state.compaction = null;
      } else if (TranscriptMemories.isUserPrompt(text)) {
        this.state.prompt = this.project.redactor.text(text);
        this.state.assistantText = null;
        // A sub-agent's "prompt" is its task, written by the main agent: it keeps the why, but is not the user's intent.
        if (this.file.kind === 'session') {
          this.state.title ??= shorten(this.state.prompt, TITLE_MAX);
          this.memories.prompt(this.state.prompt, origin);
        }
      }
      return;
    }
    for (const block of content) {
      if (block.type !== 'tool_result') continue;
      const pending = this.state.pendingTools[block.tool_use_id];
      delete this.state.pendingTools[block.tool_use_id];
      if (record.toolUseResult && !block.is_error) await this.edit(record.toolUseResult, block.tool_use_id, origin);
      // An error's text is redacted before it is cut to length and kept with the state.
      if (pending) this.outcome(pending, toolFailure(block.is_error, block.is_error ? this.project.redactor.text(resultText(block.content)) : '', pending.command), origin);
    }
  }

  /** Pairs failures with later successes of the same subject; every success is a step after the open failures. */
  private outcome(pending: ReaderState['pendingTools'][string], failure: ReturnType<typeof toolFailure>, origin: RecordOrigin): void {
    const file = pending.file;
    if (failure) {
      if (pending.subject) {
        this.state.openFailures[pending.subject] = {
          tool: pending.name,
          summary: pending.summary,
          error: failure.error,
          exitCode: failure.exitCode,
          uuid: origin.uuid,
          at: origin.at,
          after: [],
          files: file ? [file] : [],
        };
      }
      return;
    }
    const open = pending.subject ? this.state.openFailures[pending.subject] : undefined;
    if (open && pending.subject) {
      delete this.state.openFailures[pending.subject];
      this.memories.gotcha(open, { summary: pending.summary, files: file ? [file] : [] }, origin);
    }
    // Reads and searches do not fix anything; edits and commands might.
    if (pending.name === 'Read' || !pending.subject) return;
    for (const other of Object.values(this.state.openFailures)) {
      if (other.after.length < MAX_STEPS_AFTER_FAILURE) other.after.push(pending.summary);
      if (file && !other.files.includes(file)) other.files.push(file);
    }
  }

  private async edit(result: ToolUseResult, toolUseId: string, origin: RecordOrigin): Promise<void> {
    const edit = editedTexts(result);
    if (!edit) return;
    const relative = this.projectPath(edit.filePath);
    if (relative === null) return;
    const prepared = await this.recorder.prepareAgentEdit(relative, edit.before, edit.after, {
      why: whyOf(this.state),
      sessionId: origin.sessionId,
      sourceRef: editSourceRef(toolUseId),
      at: origin.at,
    });
    if (!prepared) return;
    this.writes.hold((slice) => {
      if (this.recorder.applyAgentEdit(prepared, slice).kind === 'recorded') this.diffs++;
    });
  }

  private projectPath(file: string): string | null {
    return toProjectPath(this.project.root, path.resolve(this.project.root, file));
  }
}
