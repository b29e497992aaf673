import assert from 'node:assert/strict';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { Redactor } from '../../server/src/secrets/redact';
import type { ImportBatch, RejectedLine } from '../../server/src/cli/import/importBatches';
import { ImportReadError, writeInTransactions, type ImportProgress } from '../../server/src/cli/import/importTransactions';
import { newMemoryId } from '../../server/src/memory/ids';
import type { Memory } from '../../server/src/memory/types';
import { openDatabase } from '../../server/src/store/database';
import { FtsTags } from '../../server/src/store/bulkImportTags';
import type { ImportOutcome } from '../../server/src/store/memoryStore';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { prepareForImport } from '../../server/src/store/preparedImport';
import { tempDir } from '../support/tempDirs';

function memory(i: number, change: Partial<Memory> = {}): Memory {
  const time = Date.UTC(2025, 0, 1) + i * 1000;
  return {
    id: newMemoryId(time), kind: 'note', title: `Memory ${i}`, body: `body ${i}`, why: null, source: 'user', sessionId: null, sourceRef: null,
    createdAt: time, updatedAt: time, importance: 0.5, pin: 'none', status: 'active', files: [`src/f${i % 3}.ts`], symbols: [], anchor: null, meta: {},
    ...change,
  };
}

const redactor = new Redactor();
const tags = new FtsTags();
const batch = (memories: Memory[], rejected: RejectedLine[] = []): ImportBatch => ({ memories: memories.map((m) => prepareForImport(m, redactor, tags)), rejected });

/** A reader's batches, each after `delayMs`; `fail` instead of the batch at that index. */
async function* reader(batches: ImportBatch[], options: { delayMs?: (index: number) => number; failAt?: number } = {}): AsyncGenerator<ImportBatch> {
  for (const [index, next] of batches.entries()) {
    await sleep(options.delayMs?.(index) ?? 0);
    if (index === options.failAt) throw new Error('the reader thread crashed');
    yield next;
  }
}

function store(file = path.join(tempDir(), 'memory.db')) {
  const { db } = openDatabase(file);
  return { file, db, store: new MemoryStore(db) };
}

function recorder() {
  const commits: ImportOutcome[][] = [];
  const rejected: number[] = [];
  const progress: ImportProgress = { rejected: (lines) => rejected.push(...lines.map((l) => l.lineNumber)), committed: (outcomes) => commits.push([...outcomes]) };
  return { commits, rejected, progress };
}

describe("writing an import's batches in transactions", () => {
  it('commits every `memories` memories across batches, and the rest at the end; reports skipped lines as read', async () => {
    const { store: target } = store();
    const memories = Array.from({ length: 11 }, (_, i) => memory(i));
    const batches = [batch(memories.slice(0, 2)), batch(memories.slice(2, 4), [{ lineNumber: 5, error: 'bad' }]), batch([]), batch(memories.slice(4, 6)), batch(memories.slice(6, 8)), batch(memories.slice(8, 11))];
    const { commits, rejected, progress } = recorder();
    await writeInTransactions(reader(batches), () => target.beginImport(), { memories: 5, lockMs: 60_000 }, progress);
    assert.deepEqual(commits.map((c) => c.length), [6, 5]);
    assert.deepEqual(rejected, [5]);
    assert.deepEqual([...target.all()].map((m) => m.id).sort(), memories.map((m) => m.id).sort());
  });

  it('does not hold the write lock while a slow reader keeps the next batch', async () => {
    const { file, store: target } = store();
    const other = store(file);
    other.db.pragma('busy_timeout = 0');
    const memories = Array.from({ length: 4 }, (_, i) => memory(i));
    let otherWrote: boolean | undefined;
    // While the reader takes 400 ms over its second batch, another connection writes at once.
    const batches = reader([batch(memories.slice(0, 2)), batch(memories.slice(2))], { delayMs: (i) => (i === 1 ? 400 : 0) });
    const checking = (async () => {
      await sleep(250);
      try {
        other.store.import(memory(99));
        otherWrote = true;
      } catch (error) {
        otherWrote = !/locked|busy/i.test((error as Error).message);
      }
    })();
    const { commits, progress } = recorder();
    await writeInTransactions(batches, () => target.beginImport(), { memories: 100, lockMs: 100 }, progress);
    await checking;
    assert.equal(otherWrote, true, 'the write lock was released after 100 ms of waiting for the reader');
    assert.deepEqual(commits.map((c) => c.length), [2, 2]);
  });

  it('keeps a transaction open while the reader is quick, under the lock limit', async () => {
    const { store: target } = store();
    const memories = Array.from({ length: 6 }, (_, i) => memory(i));
    const { commits, progress } = recorder();
    await writeInTransactions(reader([batch(memories.slice(0, 3)), batch(memories.slice(3))], { delayMs: () => 5 }), () => target.beginImport(), { memories: 100, lockMs: 60_000 }, progress);
    assert.deepEqual(commits.map((c) => c.length), [6]);
  });

  it('undoes the transaction a failed write was in, keeps the ones before, and throws the write error', async () => {
    const { store: target } = store();
    const memories = Array.from({ length: 6 }, (_, i) => memory(i));
    const broken = memory(7, { importance: 7 });
    const batches = [batch(memories.slice(0, 2)), batch(memories.slice(2, 4)), batch([memories[4]!, broken])];
    const { commits, progress } = recorder();
    await assert.rejects(
      writeInTransactions(reader(batches), () => target.beginImport(), { memories: 2, lockMs: 60_000 }, progress),
      (error: Error) => /CHECK constraint failed/.test(error.message) && !(error instanceof ImportReadError),
    );
    assert.deepEqual(commits.map((c) => c.length), [2, 2]);
    assert.deepEqual([...target.all()].map((m) => m.id).sort(), memories.slice(0, 4).map((m) => m.id).sort());
    // The connection is usable afterwards: no transaction was left open.
    assert.equal(target.import(memory(8)), 'added');
  });

  it('after a failed read, stores what was read before it (the open transaction included) and throws a read error', async () => {
    const { store: target } = store();
    const memories = Array.from({ length: 6 }, (_, i) => memory(i));
    const batches = [batch(memories.slice(0, 2)), batch(memories.slice(2, 4)), batch(memories.slice(4))];
    const { commits, progress } = recorder();
    await assert.rejects(
      writeInTransactions(reader(batches, { failAt: 2 }), () => target.beginImport(), { memories: 100, lockMs: 60_000 }, progress),
      (error: Error) => error instanceof ImportReadError && /the reader thread crashed/.test(error.message),
    );
    assert.deepEqual(commits.map((c) => c.length), [4]);
    assert.deepEqual([...target.all()].map((m) => m.id).sort(), memories.slice(0, 4).map((m) => m.id).sort());
  });
});
