import type { Redactor } from '../secrets/redact';
import type { Memory } from '../memory/types';
import type { FtsTags } from './bulkImportTags';

/**
 * A memory of an import made ready to store, away from the transaction that stores it (in
 * `engram import`, on another thread): redacted, with its full-text tags.
 */
export interface PreparedMemory {
  /** As it is stored when new: Redactor.memory of the memory read. */
  readonly stored: Memory;
  /** The memory as read, only when redaction changed it: replacing a stored copy redacts it again. */
  readonly read?: Memory;
  /** The `tags` column of its full-text row. */
  readonly tags: string;
}

export function prepareForImport(memory: Memory, redactor: Redactor, tags: FtsTags): PreparedMemory {
  const stored = redactor.memory(memory);
  return redactionChanged(memory, stored) ? { stored, read: memory, tags: tags.of(stored) } : { stored, tags: tags.of(stored) };
}

/** The memory as MemoryStore.write receives it: redacting it again gives `stored`. */
export function readMemoryOf(prepared: PreparedMemory): Memory {
  return prepared.read ?? prepared.stored;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Whether Redactor.memory changed anything (most memories hold no secret: their text is kept as is). */
export function redactionChanged(read: Memory, stored: Memory): boolean {
  if (read.title !== stored.title || read.body !== stored.body || read.why !== stored.why) return true;
  if (!sameList(read.files, stored.files) || !sameList(read.symbols, stored.symbols)) return true;
  if (read.anchor && stored.anchor) {
    const [a, b] = [read.anchor, stored.anchor];
    if (a.path !== b.path || a.contextBefore !== b.contextBefore || a.contextAfter !== b.contextAfter) return true;
  }
  // Redactor.memory keeps the meta object itself when it redacted nothing in it.
  return read.meta !== stored.meta;
}
