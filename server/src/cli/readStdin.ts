const MAX_STDIN_BYTES = 8 * 1024 * 1024;

/**
 * Stdin, whole, up to a cap; resolves early (with what came, `ended: false`) when the limit
 * passes. Through process.stdin, not a read of fd 0 in libuv's thread pool: a read still waiting
 * there would keep even process.exit from ending the process.
 */
export function readStdin(limitMs: number): Promise<{ readonly text: string; readonly ended: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (ended: boolean) => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('utf8'), ended });
    };
    const timer = setTimeout(() => done(false), limitMs);
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_STDIN_BYTES) chunks.push(chunk);
    });
    process.stdin.on('end', () => done(true));
    process.stdin.on('error', () => done(true));
  });
}
