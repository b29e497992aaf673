import { isUtf8 } from 'node:buffer';
import { readSync } from 'node:fs';

/** Bytes read at a time: large reads, split here, cost a tenth of readline's line events. */
const CHUNK_BYTES = 1024 * 1024;
/** A line longer than this is reported and skipped: V8 cannot hold a string of ~512 MB at all. */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

/** A line of an export, numbered from 1, or why it cannot be read as text. */
export type ExportLine = { readonly lineNumber: number; readonly text: string } | { readonly lineNumber: number; readonly error: string };

const LF = 0x0a;
const CR = 0x0d;
/** Line breaks as readline reads them with `crlfDelay: Infinity`: \n, \r\n, and a lone \r. */
const LINE_BREAK = /\r\n|\r|\n/;

/** Where the last line break of `bytes[start, end)` ends, or -1 without one; a final \r waits for a \n unless at the end of the file. */
function lastBreakEnd(bytes: Buffer, start: number, end: number, atEnd: boolean): number {
  for (let i = end - 1; i >= start; i--) {
    const c = bytes[i];
    if (c === LF) return i + 1;
    if (c === CR) {
      if (i === end - 1 && !atEnd) continue;
      return i + 1;
    }
  }
  return -1;
}

/**
 * The lines of a file, read synchronously in large chunks, numbered as readline numbers them
 * (same line breaks, a last line without one included). A line that is not UTF-8 is reported
 * instead of read with replacement characters; a line too long to hold is reported and skipped.
 * Line breaks never occur inside a UTF-8 sequence, so text is decoded a run of whole lines at a time.
 */
export function* readExportLines(fd: number, maxLineBytes = MAX_LINE_BYTES): Generator<ExportLine> {
  let buffer = Buffer.allocUnsafe(CHUNK_BYTES * 2);
  let length = 0;
  let lineNumber = 0;
  // Bytes of an over-long line are dropped until its end.
  let skipping = false;
  for (let atEnd = false; !atEnd; ) {
    if (buffer.length - length < CHUNK_BYTES) {
      const grown = Buffer.allocUnsafe(Math.max(buffer.length * 2, length + CHUNK_BYTES));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, CHUNK_BYTES, null);
    atEnd = read === 0;
    length += read;
    const cut = atEnd ? length : lastBreakEnd(buffer, 0, length, false);
    if (cut <= 0) {
      if (length > maxLineBytes) {
        if (!skipping) yield { lineNumber: lineNumber + 1, error: tooLong(maxLineBytes) };
        skipping = true;
        length = 0;
      }
      continue;
    }
    let start = 0;
    if (skipping) {
      // The rest of the skipped line, up to its break.
      const text = buffer.toString('latin1', 0, cut);
      const match = LINE_BREAK.exec(text);
      start = match ? match.index + match[0].length : cut;
      lineNumber++;
      skipping = false;
    }
    if (start < cut) {
      for (const line of linesOf(buffer.subarray(start, cut))) {
        lineNumber++;
        if (line === null) yield { lineNumber, error: 'not UTF-8 text' };
        // A line read whole in one chunk is measured in characters (as many as bytes, or fewer).
        else if (line.length > maxLineBytes) yield { lineNumber, error: tooLong(maxLineBytes) };
        else yield { lineNumber, text: line };
      }
    }
    buffer.copy(buffer, 0, cut, length);
    length -= cut;
  }
}

const tooLong = (maxLineBytes: number) => `line longer than ${maxLineBytes >= 1024 * 1024 ? `${maxLineBytes / 1024 / 1024} MB` : `${maxLineBytes} bytes`}`;

/** Whole lines (the last may lack its break), each decoded, or null where it is not UTF-8. */
function linesOf(bytes: Buffer): (string | null)[] {
  if (isUtf8(bytes)) return bytes.includes(CR) ? splitLines(bytes.toString('utf8')) : linesAtLf(bytes);
  // Rare: find the bad lines by their bytes; in latin1 a character is a byte, so lengths match.
  const lines: (string | null)[] = [];
  let offset = 0;
  for (const latin1 of splitLines(bytes.toString('latin1'))) {
    const line = bytes.subarray(offset, offset + latin1.length);
    lines.push(isUtf8(line) ? line.toString('utf8') : null);
    offset += latin1.length;
    offset += bytes[offset] === CR && bytes[offset + 1] === LF ? 2 : 1;
  }
  return lines;
}

/**
 * Lines of UTF-8 text whose only break is \n, decoded one at a time rather than as slices of one
 * decoded run: one character beyond Latin-1 (`−`, `é`…) makes a whole run a two-byte string, and
 * then every line of it, so a line of ASCII stays half the size and parses and scans faster
 * (a quarter less time to read and parse an export).
 */
function linesAtLf(bytes: Buffer): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let end = bytes.indexOf(LF); end !== -1; end = bytes.indexOf(LF, start)) {
    lines.push(bytes.toString('utf8', start, end));
    start = end + 1;
  }
  if (start < bytes.length) lines.push(bytes.toString('utf8', start));
  return lines;
}

/** `text` cut at its line breaks; a break at the very end starts no further line. */
function splitLines(text: string): string[] {
  const lines = text.split(LINE_BREAK);
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}
