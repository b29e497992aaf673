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

/** One complete line of a transcript: its record (null for a line Engram does not read) and where the next line starts. */
export interface TranscriptLine {
  readonly record: TranscriptRecord | null;
  readonly end: number;
}

/** How far a reader got: to the end of the file, or through the line that ends at `at`. */
export type ReadPoint = 'end' | { readonly at: number };

/**
 * What was appended to a transcript since it was last read, line by line. A reader may stop
 * after any line and store `stateAt` that point: the next read resumes right after it. Counts
 * are over the lines handed out so far.
 */
export interface TranscriptReading {
  /** The file shrank or was replaced, so it is read again from the start. */
  readonly rescanned: boolean;
  /** Byte offset the lines start at. */
  readonly from: number;
  /** The new complete lines, in file order; breaking out early closes the file. */
  readonly lines: AsyncIterable<TranscriptLine>;
  /** The reader's state carried from the last read ('{}' when starting over). */
  readonly readerState: string;
  readonly unknown: number;
  readonly malformed: number;
  readonly malformedExamples: readonly MalformedLine[];
  /** What to store once every line up to `point` is handled, with the reader's state then. */
  stateAt(point: ReadPoint, readerState: string): Promise<IngestOffset>;
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
 * Opens what was appended to a transcript since `state` (null: never read), or returns null
 * when nothing was (same size and mtime). A last line still being written is left for the next
 * read; a file that shrank or whose head changed is read again from the start.
 */
export async function openTranscriptReading(file: string, state: IngestOffset | null, options: FollowOptions = {}): Promise<TranscriptReading | null> {
  const now = options.now ?? Date.now();
  const stats = await fsp.stat(file);
  const size = stats.size;
  const mtimeMs = Math.trunc(stats.mtimeMs);
  if (state && state.size === size && state.mtimeMs === mtimeMs) return null;

  const resume = await resumeOffset(file, size, state);
  const rescanned = resume === 'rescan';
  const from = rescanned ? 0 : resume;
  const carried = state && !rescanned ? state : null;
  const counts = { unknown: 0, malformed: 0, malformedExamples: [] as MalformedLine[] };
  const batch = await readNewLines(file, from, options);
  // The first HEAD_BYTES do not change while the file is read: hashed once for every point past them.
  let fullHead: Promise<string> | undefined;
  const headHashAt = (byteOffset: number): Promise<string> =>
    byteOffset >= HEAD_BYTES ? (fullHead ??= hashHead(file, HEAD_BYTES)) : hashHead(file, byteOffset);

  async function* lines(): AsyncGenerator<TranscriptLine> {
    for await (const line of batch.lines) {
      if (line.text.trim() === '') {
        yield { record: null, end: line.end };
        continue;
      }
      const parsed = parseRecord(line.text);
      if (parsed.kind === 'unknown') counts.unknown++;
      else if (parsed.kind === 'malformed') {
        counts.malformed++;
        if (counts.malformedExamples.length < MAX_MALFORMED_EXAMPLES) counts.malformedExamples.push({ start: line.start, error: parsed.error });
      }
      yield { record: parsed.kind === 'record' ? parsed.record : null, end: line.end };
    }
  }

  return {
    rescanned,
    from,
    lines: lines(),
    readerState: carried ? carried.readerState : '{}',
    get unknown() {
      return counts.unknown;
    },
    get malformed() {
      return counts.malformed + batch.oversizedLines;
    },
    get malformedExamples() {
      return counts.malformedExamples;
    },
    async stateAt(point, readerState) {
      const byteOffset = point === 'end' ? batch.nextOffset : point.at;
      return {
        path: file,
        byteOffset,
        // Read to the end: the file's size, so an unchanged file is not read again. Stopped
        // early: only as far as it got, so the next read goes on from there.
        size: point === 'end' ? size : byteOffset,
        mtimeMs,
        headHash: carried && carried.byteOffset >= HEAD_BYTES ? carried.headHash : await headHashAt(byteOffset),
        malformedLines: (carried ? carried.malformedLines : 0) + counts.malformed + batch.oversizedLines,
        readerState,
        updatedAt: now,
      };
    },
  };
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

/** Everything appended to a transcript since `state`, read whole (see openTranscriptReading). */
export async function readTranscriptUpdates(file: string, state: IngestOffset | null, options: FollowOptions = {}): Promise<TranscriptUpdates> {
  const reading = await openTranscriptReading(file, state, options);
  if (!reading) return { records: [], unknown: 0, malformed: 0, malformedExamples: [], nextState: state!, rescanned: false };
  const records: TranscriptRecord[] = [];
  for await (const line of reading.lines) if (line.record) records.push(line.record);
  const nextState = await reading.stateAt('end', reading.readerState);
  return { records, unknown: reading.unknown, malformed: reading.malformed, malformedExamples: reading.malformedExamples, nextState, rescanned: reading.rescanned };
}
