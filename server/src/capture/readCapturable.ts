import { createReadStream, promises as fsp } from 'node:fs';

/** Larger files are generated or data, not code someone is working on, and would bloat memories. */
export const MAX_CAPTURE_BYTES = 1024 * 1024;

export type CapturableRead =
  | { readonly ok: true; readonly text: string; readonly bytes: number }
  | {
      readonly ok: false;
      readonly reason: 'missing' | 'not-a-file' | 'too-large' | 'binary' | 'invalid-utf8' | 'unreadable';
      readonly detail: string;
    };

type CapturableFailure = Extract<CapturableRead, { ok: false }>;

// Text files have few control characters besides tab, newline, carriage return, form feed and escape (ANSI colours).
const MAX_CONTROL_SHARE = 0.1;
const TEXT_CONTROLS: ReadonlySet<number> = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x1b]);

function failure(reason: CapturableFailure['reason'], detail: string): CapturableFailure {
  return { ok: false, reason, detail };
}

/** Why content of `length` units, read by `codeAt`, is not text; null when it looks like text. */
function binaryEvidence(length: number, codeAt: (index: number) => number): string | null {
  let controls = 0;
  for (let index = 0; index < length; index++) {
    const code = codeAt(index);
    if (code === 0) return `NUL at offset ${index}`;
    if (code < 0x20 && !TEXT_CONTROLS.has(code)) controls++;
  }
  return controls > length * MAX_CONTROL_SHARE ? `${controls} control characters in ${length}` : null;
}

function tooLarge(bytes: number, atLeast = false): CapturableFailure {
  return failure('too-large', `${atLeast ? 'at least ' : ''}${bytes} bytes, more than the ${MAX_CAPTURE_BYTES} captured`);
}

function readFailure(error: unknown): CapturableFailure {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return failure('missing', String(error));
  if (code === 'EISDIR') return failure('not-a-file', String(error));
  return failure('unreadable', String(error));
}

/** At most `limit` bytes of a file, so a file that grew after it was measured is never read whole. */
async function readHead(absolutePath: string, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  // `end` is inclusive: this reads bytes 0 … limit - 1.
  for await (const chunk of createReadStream(absolutePath, { start: 0, end: limit - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Reads a file for capture without ever loading a huge one: the size is checked before reading,
 * and the read stops one byte past the limit. Never throws: every failure is a reason.
 */
export async function readCapturable(absolutePath: string): Promise<CapturableRead> {
  let content: Buffer;
  try {
    const stats = await fsp.stat(absolutePath);
    if (!stats.isFile()) return failure('not-a-file', `${absolutePath} is not a regular file`);
    if (stats.size > MAX_CAPTURE_BYTES) return tooLarge(stats.size);
    content = await readHead(absolutePath, MAX_CAPTURE_BYTES + 1);
  } catch (error) {
    return readFailure(error);
  }
  return checkCapturableBytes(content);
}

/** The same checks for content read from elsewhere (a blob of the git history). */
export function checkCapturableBytes(content: Buffer): CapturableRead {
  if (content.length > MAX_CAPTURE_BYTES) return tooLarge(content.length);
  const evidence = binaryEvidence(content.length, (index) => content[index] ?? 0);
  if (evidence) return failure('binary', evidence);
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(content);
    return { ok: true, text, bytes: content.length };
  } catch (error) {
    return failure('invalid-utf8', String(error));
  }
}

/** The same checks for text that did not come from disk (an editor buffer), by UTF-8 byte length. */
export function checkCapturableText(text: string): CapturableRead {
  // Every UTF-16 unit takes at least one UTF-8 byte, so a long string is too large before counting.
  if (text.length > MAX_CAPTURE_BYTES) return tooLarge(text.length, true);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_CAPTURE_BYTES) return tooLarge(bytes);
  const evidence = binaryEvidence(text.length, (index) => text.charCodeAt(index));
  if (evidence) return failure('binary', evidence);
  return { ok: true, text, bytes };
}
