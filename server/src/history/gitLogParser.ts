/**
 * Reads the output of `git log -z --raw --no-abbrev -M --format=<GIT_LOG_FORMAT>`: each commit's
 * header fields and the raw records of the files it changed, all NUL-separated. Paths and
 * messages are bytes in git (no encoding is enforced), so they are decoded here, at the boundary.
 */

/** sha, parents, author time (seconds), author name (.mailmap applied), message: NUL-separated. */
export const GIT_LOG_FORMAT = '%H%x00%P%x00%at%x00%aN%x00%B';
const HEADER_FIELDS = 5;

/** What a raw record's status letter says happened to a file (R and C carry a similarity score). */
export type FileChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied' | 'type-changed';

const STATUS: Readonly<Record<string, FileChangeStatus>> = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed', C: 'copied', T: 'type-changed' };

/** File modes git stores; only regular files are captured (not links, submodules). */
export type FileMode = 'file' | 'executable' | 'symlink' | 'submodule' | 'none' | 'other';

function modeOf(octal: string): FileMode {
  switch (octal) {
    case '100644':
      return 'file';
    case '100755':
      return 'executable';
    case '120000':
      return 'symlink';
    case '160000':
      return 'submodule';
    case '000000':
      return 'none';
    default:
      return 'other';
  }
}

/** One file of a commit. A path that is not valid UTF-8 is null: it cannot be named as a file of the project. */
export interface FileChange {
  readonly status: FileChangeStatus;
  /** The path after the commit (for a deletion, the path deleted). */
  readonly path: string | null;
  /** Renames and copies: the path before. */
  readonly oldPath: string | null;
  readonly oldMode: FileMode;
  readonly newMode: FileMode;
  /** Blob ids; all zeros on the side where the file does not exist. */
  readonly oldBlob: string;
  readonly newBlob: string;
}

export interface GitCommit {
  readonly sha: string;
  readonly parents: readonly string[];
  /** Author time, epoch milliseconds. */
  readonly authoredAt: number;
  readonly author: string;
  /** The whole message, trailing newlines removed. */
  readonly message: string;
  readonly changes: readonly FileChange[];
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const RAW_RECORD = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([AMDRCTUX])(\d*)$/;
const NUL = 0;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** A path as text, or null when it is not UTF-8. */
function pathText(bytes: Buffer): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * A message as text: UTF-8 (git re-encodes messages that declare another encoding), else, for
 * old commits that stored Latin-1 without saying so, Latin-1 — every byte is a character there.
 */
function messageText(bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return latin1.decode(bytes);
  }
}

function ascii(bytes: Buffer): string {
  return bytes.toString('latin1');
}

type Expecting =
  | { readonly kind: 'header'; readonly fields: Buffer[] }
  | { readonly kind: 'records' }
  | { readonly kind: 'paths'; readonly record: RegExpExecArray; readonly paths: Buffer[]; readonly count: number };

/**
 * A streaming parser: `push` the output as it arrives, `end` when git exits. Commits come out
 * whole, in git's order. A token is what lies between two NULs: after a header's five fields
 * come raw records (the first prefixed by the newline git writes after the message), each
 * followed by one path (two for renames and copies), then an empty token before the next commit.
 */
export class GitLogParser {
  private pending: Buffer[] = [];
  private expecting: Expecting = { kind: 'header', fields: [] };
  private current: { header: Buffer[]; changes: FileChange[] } | null = null;

  push(chunk: Buffer): GitCommit[] {
    const out: GitCommit[] = [];
    let start = 0;
    for (let nul = chunk.indexOf(NUL, start); nul >= 0; nul = chunk.indexOf(NUL, start)) {
      const piece = chunk.subarray(start, nul);
      const token = this.pending.length ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      this.token(token, out);
      start = nul + 1;
    }
    // Copied: the caller's chunk may be reused once this returns.
    if (start < chunk.length) this.pending.push(Buffer.from(chunk.subarray(start)));
    return out;
  }

  end(): GitCommit[] {
    const out: GitCommit[] = [];
    if (this.pending.length) {
      const token = Buffer.concat(this.pending);
      this.pending = [];
      this.token(token, out);
    }
    if (this.expecting.kind === 'paths') throw new Error('git log output ended inside a file record');
    if (this.expecting.kind === 'header' && this.expecting.fields.length) {
      // A last commit whose message was not followed by a NUL (git always writes one; tolerated).
      if (this.expecting.fields.length === HEADER_FIELDS - 1) this.expecting.fields.push(Buffer.alloc(0));
      if (this.expecting.fields.length !== HEADER_FIELDS) throw new Error('git log output ended inside a commit header');
      this.current = { header: this.expecting.fields, changes: [] };
    }
    this.flush(out);
    return out;
  }

  private token(token: Buffer, out: GitCommit[]): void {
    const expecting = this.expecting;
    switch (expecting.kind) {
      case 'header':
        if (expecting.fields.length === 0 && token.length === 0) return;
        if (expecting.fields.length === 0 && !SHA.test(ascii(token))) throw new Error(`git log output: expected a commit id, got ${JSON.stringify(ascii(token).slice(0, 60))}`);
        expecting.fields.push(token);
        if (expecting.fields.length === HEADER_FIELDS) {
          this.flush(out);
          this.current = { header: expecting.fields, changes: [] };
          this.expecting = { kind: 'records' };
        }
        return;
      case 'records': {
        const text = ascii(token).replace(/^\n/, '');
        const record = RAW_RECORD.exec(text);
        if (record) {
          const letter = record[5]!;
          this.expecting = { kind: 'paths', record, paths: [], count: letter === 'R' || letter === 'C' ? 2 : 1 };
          return;
        }
        // The commit's records are over: this token begins the next commit (or is the empty one before it).
        this.expecting = { kind: 'header', fields: [] };
        this.token(token, out);
        return;
      }
      case 'paths':
        expecting.paths.push(token);
        if (expecting.paths.length === expecting.count) {
          this.current!.changes.push(changeOf(expecting.record, expecting.paths));
          this.expecting = { kind: 'records' };
        }
        return;
    }
  }

  private flush(out: GitCommit[]): void {
    if (!this.current) return;
    const [sha, parents, time, author, message] = this.current.header as [Buffer, Buffer, Buffer, Buffer, Buffer];
    out.push({
      sha: ascii(sha),
      parents: ascii(parents).split(' ').filter(Boolean),
      authoredAt: Number(ascii(time)) * 1000,
      author: messageText(author),
      message: messageText(message).replace(/\n+$/, ''),
      changes: this.current.changes,
    });
    this.current = null;
  }
}

function changeOf(record: RegExpExecArray, paths: readonly Buffer[]): FileChange {
  const letter = record[5]!;
  const status = STATUS[letter];
  // U (unmerged) and X (unknown) never appear in a log of commits.
  if (!status) throw new Error(`git log output: unexpected file status ${letter}`);
  const twoPaths = paths.length === 2;
  return {
    status,
    path: pathText(paths[paths.length - 1]!),
    oldPath: twoPaths ? pathText(paths[0]!) : null,
    oldMode: modeOf(record[1]!),
    newMode: modeOf(record[2]!),
    oldBlob: record[3]!,
    newBlob: record[4]!,
  };
}

/** Whether a blob id is git's "no file here" (all zeros). */
export function isNullBlob(blob: string): boolean {
  return /^0+$/.test(blob);
}
