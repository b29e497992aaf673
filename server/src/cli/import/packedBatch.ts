import type { Anchor, Memory, MemoryId, MemoryKind, MemorySource, MemoryStatus, PinLevel } from '../../memory/types';
import type { PreparedMemory } from '../../store/preparedImport';
import type { ImportBatch, RejectedLine } from './importBatches';

/**
 * An ImportBatch as columns, the form in which it crosses from the reader thread to the writes.
 * V8 copies arrays of strings and numbers between threads several times faster than as many
 * objects (4,000 memories through v8.deserialize: ~28 ms as objects, ~8 ms as columns, before
 * unpacking), and the writes, on the main thread, wait for it. Index i of every column is the batch's i-th memory.
 */
export interface PackedImportBatch {
  readonly ids: MemoryId[];
  readonly kinds: MemoryKind[];
  readonly titles: string[];
  readonly bodies: string[];
  readonly whys: (string | null)[];
  readonly sources: MemorySource[];
  readonly sessionIds: (string | null)[];
  readonly sourceRefs: (string | null)[];
  readonly createdAt: number[];
  readonly updatedAt: number[];
  readonly importance: number[];
  readonly pins: PinLevel[];
  readonly statuses: MemoryStatus[];
  readonly files: (readonly string[])[];
  readonly symbols: (readonly string[])[];
  /** JSON of the anchor, or null: anchors are few. */
  readonly anchors: (string | null)[];
  /** JSON of the meta object. */
  readonly metas: string[];
  readonly tags: string[];
  /** PreparedMemory.read of the few memories redaction changed, by index. */
  readonly read: (readonly [number, Memory])[];
  readonly rejected: RejectedLine[];
}

export function packBatch(batch: ImportBatch): PackedImportBatch {
  const stored = batch.memories.map((m) => m.stored);
  const read: (readonly [number, Memory])[] = [];
  batch.memories.forEach((m, i) => {
    if (m.read) read.push([i, m.read]);
  });
  return {
    ids: stored.map((m) => m.id),
    kinds: stored.map((m) => m.kind),
    titles: stored.map((m) => m.title),
    bodies: stored.map((m) => m.body),
    whys: stored.map((m) => m.why),
    sources: stored.map((m) => m.source),
    sessionIds: stored.map((m) => m.sessionId),
    sourceRefs: stored.map((m) => m.sourceRef),
    createdAt: stored.map((m) => m.createdAt),
    updatedAt: stored.map((m) => m.updatedAt),
    importance: stored.map((m) => m.importance),
    pins: stored.map((m) => m.pin),
    statuses: stored.map((m) => m.status),
    files: stored.map((m) => m.files),
    symbols: stored.map((m) => m.symbols),
    anchors: stored.map((m) => (m.anchor ? JSON.stringify(m.anchor) : null)),
    metas: stored.map((m) => JSON.stringify(m.meta)),
    tags: batch.memories.map((m) => m.tags),
    read,
    rejected: batch.rejected,
  };
}

export function unpackBatch(packed: PackedImportBatch): ImportBatch {
  const read = new Map(packed.read);
  const memories: PreparedMemory[] = [];
  for (let i = 0; i < packed.ids.length; i++) {
    const stored: Memory = {
      id: packed.ids[i]!,
      kind: packed.kinds[i]!,
      title: packed.titles[i]!,
      body: packed.bodies[i]!,
      why: packed.whys[i]!,
      source: packed.sources[i]!,
      sessionId: packed.sessionIds[i]!,
      sourceRef: packed.sourceRefs[i]!,
      createdAt: packed.createdAt[i]!,
      updatedAt: packed.updatedAt[i]!,
      importance: packed.importance[i]!,
      pin: packed.pins[i]!,
      status: packed.statuses[i]!,
      files: packed.files[i]!,
      symbols: packed.symbols[i]!,
      anchor: packed.anchors[i] ? (JSON.parse(packed.anchors[i]!) as Anchor) : null,
      meta: JSON.parse(packed.metas[i]!) as Record<string, unknown>,
    };
    const memoryRead = read.get(i);
    memories.push(memoryRead ? { stored, read: memoryRead, tags: packed.tags[i]! } : { stored, tags: packed.tags[i]! });
  }
  return { memories, rejected: packed.rejected };
}
