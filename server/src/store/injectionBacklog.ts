import { appendFileSync, readFileSync, renameSync, unlinkSync } from 'node:fs';

/** What one hook gave a session: logged in the injection log, or kept in the backlog until it can be. */
export interface GivenContext {
  readonly sessionId: string;
  /** The hook event that gave it: session-start, user-prompt-submit. */
  readonly event: string;
  readonly items: readonly { readonly memoryId: string; readonly tokens: number }[];
  readonly at: number;
  /** After a compaction: what the session was given before is no longer in its context. */
  readonly forgetEarlier: boolean;
}

function parseLines(text: string): GivenContext[] {
  const entries: GivenContext[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const value = JSON.parse(line) as GivenContext;
      if (typeof value.sessionId === 'string' && Array.isArray(value.items) && typeof value.at === 'number') entries.push(value);
    } catch {
      // A line torn by a crash mid-append: what it held is lost, the rest is not.
    }
  }
  return entries;
}

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

/** Entries taken out of the backlog to be logged: put back unless `done`. */
export interface ClaimedEntries {
  readonly entries: readonly GivenContext[];
  done(): void;
  putBack(): void;
}

/**
 * Injections a hook could not log because another writer held the database (an `engram import`,
 * a long transaction): one JSON line each, in a file beside the database, logged by the next
 * write that gets through. Appends are single writes, so processes do not interleave lines; a
 * writer takes the file by renaming it, so two writers never log the same entries.
 */
export class InjectionBacklog {
  constructor(private readonly file: string) {}

  append(entry: GivenContext): void {
    appendFileSync(this.file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }

  /** Everything waiting, in order (read only: for what a session was already given). */
  peek(): GivenContext[] {
    return parseLines(readIfThere(this.file));
  }

  claim(): ClaimedEntries {
    const claimed = `${this.file}.${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
    try {
      renameSync(this.file, claimed);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return { entries: [], done: () => undefined, putBack: () => undefined };
    }
    const text = readFileSync(claimed, 'utf8');
    return {
      entries: parseLines(text),
      done: () => unlinkSync(claimed),
      putBack: () => {
        appendFileSync(this.file, text, { mode: 0o600 });
        unlinkSync(claimed);
      },
    };
  }
}
