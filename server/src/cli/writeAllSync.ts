import { writeSync } from 'node:fs';

/** Give up on a reader that takes nothing for this long: a hook must end in bounded time. */
const STALLED_MS = 2000;

/**
 * Writes all of `text` to a file descriptor without process.stdout (which loads node:net for a
 * pipe or socket): waits out a full non-blocking pipe, gives up on a reader that is gone or stalled.
 */
export function writeAllSync(fd: number, text: string): void {
  let rest = Buffer.from(text, 'utf8');
  let stalledSince: number | undefined;
  let pause: Int32Array | undefined;
  while (rest.length) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
      stalledSince = undefined;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EAGAIN' && code !== 'EWOULDBLOCK') return;
      stalledSince ??= Date.now();
      if (Date.now() - stalledSince > STALLED_MS) return;
      pause ??= new Int32Array(new SharedArrayBuffer(4));
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
