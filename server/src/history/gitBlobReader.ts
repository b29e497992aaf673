import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** A blob as `git cat-file --batch` gives it: its bytes, or only its size when larger than the limit. */
export type BlobContent =
  | { readonly kind: 'bytes'; readonly bytes: Buffer }
  | { readonly kind: 'too-large'; readonly size: number }
  | { readonly kind: 'missing' };

interface Waiting {
  readonly resolve: (content: BlobContent) => void;
  readonly reject: (error: Error) => void;
}

/** What the reader is in the middle of: a header line, or an object's content (kept or skipped). */
type ReadState = { readonly kind: 'header' } | { readonly kind: 'content'; readonly size: number; readonly keep: boolean; readonly parts: Buffer[]; got: number };

const LF = 10;

/**
 * One long-lived `git cat-file --batch` for a whole import: blobs are asked for by id, many at a
 * time (git answers in order), and a blob larger than `maxBytes` is counted past as it streams
 * by, never held whole in memory.
 */
export class GitBlobReader {
  private readonly git: ChildProcessWithoutNullStreams;
  private readonly waiting: Waiting[] = [];
  private state: ReadState = { kind: 'header' };
  private header: Buffer[] = [];
  private failure: Error | null = null;
  private stderr = '';

  constructor(
    cwd: string,
    private readonly maxBytes: number,
  ) {
    this.git = spawn('git', ['cat-file', '--batch'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.git.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.git.stderr.setEncoding('utf8').on('data', (text: string) => (this.stderr += text));
    this.git.on('error', (error) => this.fail(new Error(`git cat-file could not run: ${error.message}`)));
    this.git.on('exit', (code) => this.fail(new Error(`git cat-file exited (${code})${this.stderr ? `: ${this.stderr.trim()}` : ''}`)));
    // Writes after git has gone fail through 'exit' above; this only keeps them from being unhandled.
    this.git.stdin.on('error', () => undefined);
  }

  /** The blob with this id. */
  read(blob: string): Promise<BlobContent> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.git.stdin.write(`${blob}\n`);
    });
  }

  close(): void {
    this.waiting.length = 0;
    this.failure ??= new Error('the blob reader was closed');
    this.git.stdin.end();
  }

  private fail(error: Error): void {
    if (this.failure && !this.waiting.length) return;
    this.failure ??= error;
    for (const waiting of this.waiting.splice(0)) waiting.reject(this.failure);
  }

  private receive(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      const state = this.state;
      if (state.kind === 'header') {
        const lf = chunk.indexOf(LF, offset);
        if (lf < 0) {
          this.header.push(chunk.subarray(offset));
          return;
        }
        this.header.push(chunk.subarray(offset, lf));
        const line = Buffer.concat(this.header).toString('latin1');
        this.header = [];
        offset = lf + 1;
        this.headerLine(line);
        continue;
      }
      // The content and the newline after it.
      const wanted = state.size + 1 - state.got;
      const take = Math.min(wanted, chunk.length - offset);
      if (state.keep) state.parts.push(chunk.subarray(offset, offset + take));
      state.got += take;
      offset += take;
      if (state.got === state.size + 1) {
        this.state = { kind: 'header' };
        const waiting = this.waiting.shift();
        if (!state.keep) waiting?.resolve({ kind: 'too-large', size: state.size });
        // Copied out of git's chunks (which may hold several blobs) without the newline.
        else waiting?.resolve({ kind: 'bytes', bytes: Buffer.concat(state.parts).subarray(0, state.size) });
      }
    }
  }

  /** `<id> <type> <size>`, or `<id> missing` (also for an id that names no object of this repository). */
  private headerLine(line: string): void {
    const parts = line.split(' ');
    if (parts[1] === 'missing' || parts[1] === 'ambiguous') {
      this.waiting.shift()?.resolve({ kind: 'missing' });
      return;
    }
    const size = Number(parts[2]);
    if (parts.length !== 3 || !Number.isSafeInteger(size)) {
      this.fail(new Error(`git cat-file: unexpected header ${JSON.stringify(line.slice(0, 100))}`));
      this.git.kill();
      return;
    }
    this.state = { kind: 'content', size, keep: size <= this.maxBytes, parts: [], got: 0 };
  }
}
