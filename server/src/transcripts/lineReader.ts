import { promises as fsp } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** One complete line: its text without the line break, and its byte range in the file. */
export interface CompleteLine {
  readonly text: string;
  /** Byte offset of the line's first byte. */
  readonly start: number;
  /** Byte offset just past the line's '\n': where the next read resumes. */
  readonly end: number;
}

export interface ReadLinesOptions {
  /** Size of the one read buffer; memory use is this plus the current line. */
  readonly bufferBytes?: number;
  /** Longer lines are consumed but not decoded, so one runaway line cannot exhaust memory. */
  readonly maxLineBytes?: number;
}

/**
 * New complete lines of a file. `lines` must be iterated (to the end or broken out of, which
 * closes the file); `nextOffset`, `partialTail` and `oversizedLines` are final once it is done.
 */
export interface NewLines {
  readonly lines: AsyncIterable<CompleteLine>;
  /** End of the last line handed out (or the start offset): a partial last line is not consumed. */
  readonly nextOffset: number;
  /** Bytes after the last '\n' were seen: a line still being written. */
  readonly partialTail: boolean;
  /** Lines over `maxLineBytes`, skipped. */
  readonly oversizedLines: number;
}

const DEFAULT_BUFFER_BYTES = 256 * 1024;
const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Reads the complete lines of `file` from byte `fromOffset` on, streaming: only the read buffer
 * and the line being assembled are held. Text is decoded as UTF-8; invalid bytes become U+FFFD.
 */
export async function readNewLines(file: string, fromOffset: number, options: ReadLinesOptions = {}): Promise<NewLines> {
  const handle = await fsp.open(file, 'r');
  const bufferBytes = options.bufferBytes ?? DEFAULT_BUFFER_BYTES;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const progress = { nextOffset: fromOffset, partialTail: false, oversizedLines: 0 };

  async function* lines(): AsyncGenerator<CompleteLine> {
    // Two buffers: the next chunk is read while the lines of this one are handed out.
    let buffer = Buffer.allocUnsafe(bufferBytes);
    let spare = Buffer.allocUnsafe(bufferBytes);
    let reading: Promise<{ bytesRead: number }> | undefined;
    try {
      let chunkStart = fromOffset;
      let lineStart = fromOffset;
      let decoder = new StringDecoder('utf8');
      let parts: string[] = [];
      let lineBytes = 0;
      reading = handle.read(buffer, 0, bufferBytes, chunkStart);
      for (;;) {
        const { bytesRead }: { bytesRead: number } = await reading;
        reading = undefined;
        if (bytesRead === 0) break;
        const chunk = buffer.subarray(0, bytesRead);
        reading = handle.read(spare, 0, bufferBytes, chunkStart + bytesRead);
        [buffer, spare] = [spare, buffer];
        let from = 0;
        while (from < bytesRead) {
          const newline = chunk.indexOf(NEWLINE, from);
          const until = newline === -1 ? bytesRead : newline;
          lineBytes += until - from;
          if (lineBytes <= maxLineBytes) parts.push(decoder.write(chunk.subarray(from, until)));
          else parts = [];
          if (newline === -1) break;
          const end = chunkStart + newline + 1;
          // A line counts as consumed once handed out, so a consumer that stops early resumes after it.
          progress.nextOffset = end;
          if (lineBytes <= maxLineBytes) {
            const text = parts.join('') + decoder.end();
            yield { text: text.endsWith('\r') ? text.slice(0, -1) : text, start: lineStart, end };
          } else {
            progress.oversizedLines++;
          }
          decoder = new StringDecoder('utf8');
          parts = [];
          lineBytes = 0;
          lineStart = end;
          from = newline + 1;
        }
        chunkStart += bytesRead;
      }
      progress.partialTail = chunkStart > lineStart;
    } finally {
      // A consumer that stopped early leaves a read in flight: it ends before the file is closed.
      await reading?.catch(() => undefined);
      await handle.close();
    }
  }

  return {
    lines: lines(),
    get nextOffset() {
      return progress.nextOffset;
    },
    get partialTail() {
      return progress.partialTail;
    },
    get oversizedLines() {
      return progress.oversizedLines;
    },
  };
}
