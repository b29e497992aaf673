import { fstatSync, readSync } from 'node:fs';

const MAX_STDIN_BYTES = 8 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
/** How long to pause when stdin is non-blocking and has nothing yet. */
const EMPTY_PAUSE_MS = 1;

/** Whether the chunk's last byte other than white space is `}`: only then can the input be whole. */
function endsWithBrace(chunk: Buffer): boolean {
  for (let i = chunk.length - 1; i >= 0; i--) {
    const byte = chunk[i]!;
    if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return byte === 0x7d;
  }
  return false;
}

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A hook's stdin, read synchronously, for `engram` answered by the memory server: setting up
 * process.stdin loads node:net and needs an event loop turn (~5 ms, more than the server's whole
 * answer). Claude Code writes one JSON object and closes its end (hooks that run `jq` rely on
 * it). Reading stops at the end, at a complete JSON object — so a caller that keeps stdin open
 * after the event is not waited for — at 8 MB, or, when stdin is non-blocking and stays empty,
 * after `limitMs` (`ended: false`). A terminal or /dev/null is not read. A blocking stdin on which
 * nothing ever comes would block: it is read only once a running server was found
 * (viaMemoryServer.ts), and Claude Code's own hook timeout ends that (docs/claude-code.md).
 */
export function readStdinSync(limitMs: number): { readonly text: string; readonly ended: boolean } {
  try {
    if (fstatSync(0).isCharacterDevice()) return { text: '', ended: true };
  } catch {
    return { text: '', ended: true }; // No stdin at all.
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const deadline = Date.now() + limitMs;
  let pause: Int32Array | undefined;
  const text = () => Buffer.concat(chunks).toString('utf8');
  for (;;) {
    let read: number;
    try {
      read = readSync(0, buffer, 0, CHUNK_BYTES, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EAGAIN' && code !== 'EWOULDBLOCK') return { text: text(), ended: true };
      if (Date.now() >= deadline) return { text: text(), ended: false };
      pause ??= new Int32Array(new SharedArrayBuffer(4));
      Atomics.wait(pause, 0, 0, EMPTY_PAUSE_MS);
      continue;
    }
    if (read === 0) return { text: text(), ended: true };
    if (size + read > MAX_STDIN_BYTES) return { text: text(), ended: true };
    const chunk = Buffer.from(buffer.subarray(0, read));
    chunks.push(chunk);
    size += read;
    if (endsWithBrace(chunk)) {
      const whole = text();
      if (isCompleteJson(whole)) return { text: whole, ended: true };
    }
  }
}
