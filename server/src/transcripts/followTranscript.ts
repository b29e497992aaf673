import { promises as fsp } from 'node:fs';
import { sha256HexOfBytes } from '../util/hashing';
import type { IngestOffset } from '../store/ingestOffsetStore';
import { readNewLines, type ReadLinesOptions } from './lineReader';
import { parseRecord, type TranscriptRecord } from './records';

/** Enough of the head to tell one session's file from another's (it holds the first record ids). */
const HEAD_BYTES = 4096;
/** Malformed lines are counted; only a few are kept to log what went wrong. */
const MAX_MALFORMED_EXAMPLES = 5;

export interface MalformedLine {
  readonly start: number;
  readonly error: string;
}

export interface TranscriptUpdates {
  /** Records new since `state`, in file order; each has its `uuid`, which callers use to stay idempotent. */
  readonly records: readonly TranscriptRecord[];
  /** Lines of record types Engram does not read. */
  readonly unknown: number;
  /** Lines that were not JSON, did not fit the schema, or were too long, among the new ones. */
  readonly malformed: number;
  readonly malformedExamples: readonly MalformedLine[];
  /** What to store for the next call. */
  readonly nextState: IngestOffset;
  /** The file shrank or was replaced, so it was read again from the start. */
  readonly rescanned: boolean;
}

export interface FollowOptions extends ReadLinesOptions {
  readonly now?: number;
}

async function hashHead(file: string, length: number): Promise<string> {
  const handle = await fsp.open(file, 'r');
  try {
    const head = Buffer.alloc(Math.min(HEAD_BYTES, length));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return sha256HexOfBytes(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** Where to resume: the stored offset, or 0 when the file is not the one that was read before. */
async function resumeOffset(file: string, size: number, state: IngestOffset | null): Promise<number | 'rescan'> {
  if (!state) return 0;
  if (size < state.size || size < state.byteOffset) return 'rescan';
  return (await hashHead(file, state.byteOffset)) === state.headHash ? state.byteOffset : 'rescan';
}

/**
 * Reads what was appended to a transcript since `state` (null: never read). A last line still
 * being written is left for the next call; a file that shrank or whose head changed is re-read.
 */
export async function readTranscriptUpdates(file: string, state: IngestOffset | null, options: FollowOptions = {}): Promise<TranscriptUpdates> {
  const now = options.now ?? Date.now();
  const stats = await fsp.stat(file);
  const size = stats.size;
  const mtimeMs = Math.trunc(stats.mtimeMs);
  if (state && state.size === size && state.mtimeMs === mtimeMs) {
    return { records: [], unknown: 0, malformed: 0, malformedExamples: [], nextState: state, rescanned: false };
  }

  const resume = await resumeOffset(file, size, state);
  const rescanned = resume === 'rescan';
  const from = rescanned ? 0 : resume;
  const records: TranscriptRecord[] = [];
  const malformedExamples: MalformedLine[] = [];
  let unknown = 0;
  let malformed = 0;

  const batch = await readNewLines(file, from, options);
  for await (const line of batch.lines) {
    if (line.text.trim() === '') continue;
    const parsed = parseRecord(line.text);
    if (parsed.kind === 'record') records.push(parsed.record);
    else if (parsed.kind === 'unknown') unknown++;
    else {
      malformed++;
      if (malformedExamples.length < MAX_MALFORMED_EXAMPLES) malformedExamples.push({ start: line.start, error: parsed.error });
    }
  }
  malformed += batch.oversizedLines;

  const byteOffset = batch.nextOffset;
  const headUnchanged = state && !rescanned && state.byteOffset >= HEAD_BYTES;
  const nextState: IngestOffset = {
    path: file,
    byteOffset,
    size,
    mtimeMs,
    headHash: headUnchanged ? state.headHash : await hashHead(file, byteOffset),
    malformedLines: (state && !rescanned ? state.malformedLines : 0) + malformed,
    // A re-read starts over, so what the reader carried from the old content no longer applies.
    readerState: state && !rescanned ? state.readerState : '{}',
    updatedAt: now,
  };
  return { records, unknown, malformed, malformedExamples, nextState, rescanned };
}
