/** The CLI's stdout, which may be a pipe whose reader goes away before the end. */
export interface StandardOutput {
  readonly write: (text: string) => void;
  /** The reader has gone (`engram export | head -1`) or writing failed: the rest is dropped, so stop making it. */
  readonly closed: () => boolean;
  /** Writing failed for another reason than the reader going away (a full disk): the command did not do its job. */
  readonly failed: () => boolean;
}

/**
 * Stdout that ends quietly when its reader does: Node reports a write to a closed pipe as an
 * EPIPE 'error' event, which, unhandled, crashed the process with a stack trace. Any other write
 * error is said once on stderr and makes the exit code 1. process.stdout is touched only at the
 * first write: for a pipe it loads node:net, which a hook answered by the memory server never needs.
 */
export function standardOutput(err: (text: string) => void): StandardOutput {
  let watching = false;
  let closed = false;
  let failed = false;
  const stopped = (error: NodeJS.ErrnoException) => {
    if (closed) return;
    closed = true;
    if (error.code === 'EPIPE') return;
    failed = true;
    process.exitCode = 1;
    err(`engram: cannot write to stdout: ${error.message}\n`);
  };
  return {
    write(text) {
      if (closed) return;
      const stdout = process.stdout;
      if (!watching) {
        watching = true;
        stdout.on('error', stopped);
      }
      stdout.write(text);
      // A failed write marks the stream at once; its 'error' event comes a tick later.
      if (stdout.errored) stopped(stdout.errored as NodeJS.ErrnoException);
    },
    closed: () => closed,
    failed: () => failed,
  };
}
