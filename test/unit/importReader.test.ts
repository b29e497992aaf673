import assert from 'node:assert/strict';
import { createReadStream, openSync, closeSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { readExportLines } from '../../server/src/cli/import/exportLines';
import { importBatches, type ImportBatch } from '../../server/src/cli/import/importBatches';
import { readImportBatches } from '../../server/src/cli/import/importReader';
import { packBatch, unpackBatch } from '../../server/src/cli/import/packedBatch';
import { memoryToRecord } from '../../server/src/memory/record';
import { Redactor } from '../../server/src/secrets/redact';
import { newMemoryId } from '../../server/src/memory/ids';
import type { Memory } from '../../server/src/memory/types';
import { openDatabase } from '../../server/src/store/database';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { tempDir } from '../support/tempDirs';

function fileWith(contents: string | Buffer): string {
  const file = path.join(tempDir(), 'export.jsonl');
  writeFileSync(file, contents);
  return file;
}

function linesOf(file: string, maxLineBytes?: number) {
  const fd = openSync(file, 'r');
  try {
    return [...readExportLines(fd, maxLineBytes)];
  } finally {
    closeSync(fd);
  }
}

async function readlineLines(file: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) lines.push(line);
  return lines;
}

function memory(i: number): Memory {
  const time = Date.UTC(2025, 0, 1) + i * 1000;
  return {
    id: newMemoryId(time), kind: 'note', title: `Memory ${i}`, body: i % 3 ? `body ${i}` : `password = "Sup3rS3cret!${i}x"`, why: null, source: 'user',
    sessionId: null, sourceRef: null, createdAt: time, updatedAt: time, importance: 0.5, pin: 'none', status: 'active',
    files: [`src/f${i % 4}.ts`], symbols: [], anchor: null, meta: { n: i },
  };
}

const line = (m: Memory) => JSON.stringify(memoryToRecord(m));

async function collect(batches: AsyncIterable<ImportBatch>): Promise<ImportBatch[]> {
  const all: ImportBatch[] = [];
  for await (const batch of batches) all.push(batch);
  return all;
}

describe("an export's lines", () => {
  it('are the lines readline reads, across read chunks, with every kind of line break', async () => {
    // Over 2 MB, so lines and \r\n pairs straddle the 1 MB reads.
    const pieces: string[] = [];
    for (let i = 0, length = 0; length < 2_500_000; i++) {
      const piece = `{"n":${i},"text":"${'é€x'.repeat(i % 97)}"}${['\n', '\r\n', '\r', '\n\n', ' \n'][i % 5]!}`;
      pieces.push(piece);
      length += piece.length;
    }
    const file = fileWith(`${pieces.join('')}last line without a break`);
    const lines = linesOf(file);
    assert.deepEqual(lines.map((l) => ('text' in l ? l.text : l.error)), await readlineLines(file));
    assert.deepEqual(lines.map((l) => l.lineNumber), lines.map((_, i) => i + 1));
  });

  it('are the lines readline reads when every break is \\n, lines of ASCII and of other text, across read chunks', async () => {
    // Lines with \n only are decoded one at a time (exportLines.ts): multi-byte characters at the
    // start and end of lines, empty lines, and lines straddling the 1 MB reads.
    const pieces: string[] = [];
    for (let i = 0, length = 0; length < 2_500_000; i++) {
      const piece = i % 7 === 0 ? '\n' : `${i % 3 ? '' : '€'}{"n":${i},"text":"${(i % 2 ? 'ascii ' : 'é−😀').repeat(i % 89)}"}${i % 5 ? '' : '—'}\n`;
      pieces.push(piece);
      length += piece.length;
    }
    for (const end of ['', 'last line without a break']) {
      const file = fileWith(`${pieces.join('')}${end}`);
      const lines = linesOf(file);
      assert.deepEqual(lines.map((l) => ('text' in l ? l.text : l.error)), await readlineLines(file));
      assert.deepEqual(lines.map((l) => l.lineNumber), lines.map((_, i) => i + 1));
    }
  });

  it('skips a line too long to hold that spans many reads', () => {
    const file = fileWith(`first\n${'y'.repeat(3_500_000)}\r\nthird`);
    assert.deepEqual(linesOf(file, 1024 * 1024), [
      { lineNumber: 1, text: 'first' },
      { lineNumber: 2, error: 'line longer than 1 MB' },
      { lineNumber: 3, text: 'third' },
    ]);
  });

  it('reports a line that is not UTF-8, and one too long to hold, and keeps the lines around them', () => {
    const file = fileWith(Buffer.concat([Buffer.from('first\n{"bad": "'), Buffer.from([0xff, 0xfe, 0x80]), Buffer.from('"}\r\nthird\n'), Buffer.from(`${'x'.repeat(3000)}\nfifth`)]));
    assert.deepEqual(linesOf(file, 1000), [
      { lineNumber: 1, text: 'first' },
      { lineNumber: 2, error: 'not UTF-8 text' },
      { lineNumber: 3, text: 'third' },
      { lineNumber: 4, error: 'line longer than 1000 bytes' },
      { lineNumber: 5, text: 'fifth' },
    ]);
  });
});

describe('import batches', () => {
  it('hold as many memories as asked, in the order of the lines, the last one fewer', () => {
    const memories = Array.from({ length: 20 }, (_, i) => memory(i));
    const lines = memories.map((m, i) => ({ lineNumber: i + 1, text: line(m) }));
    const batches = [...importBatches(lines, new Redactor(), 6)];
    assert.deepEqual(batches.map((b) => b.memories.length), [6, 6, 6, 2]);
    assert.deepEqual(batches.flatMap((b) => b.memories.map((m) => m.stored.id)), memories.map((m) => m.id));
  });
});

describe('a batch sent between threads', () => {
  it('is unpacked into the batch that was packed: anchors, meta, nulls, the memories as read, the skipped lines', () => {
    const memories = Array.from({ length: 6 }, (_, i) => memory(i));
    memories[1] = { ...memories[1]!, why: 'because', sessionId: 's1', sourceRef: 'claude:u1', pin: 'hard', kind: 'constraint', symbols: ['A.b', 'c'], meta: { nested: { list: [1, 'x', null] } },
      anchor: { path: 'src/a.ts', range: { startLine: 3, startCharacter: 0, endLine: 5, endCharacter: 2 }, contentHash: 'h', contextBefore: 'before', contextAfter: 'after', stale: true } };
    const lines = memories.map((m, i) => ({ lineNumber: i + 1, text: line(m) }));
    const [batch] = [...importBatches([...lines, { lineNumber: 7, error: 'not UTF-8 text' }], new Redactor(), 10)];
    assert.ok(batch!.memories.some((m) => m.read), 'a memory redaction changed is in the batch');
    const unpacked = unpackBatch(structuredClone(packBatch(batch!)));
    assert.deepEqual(unpacked, batch);
    assert.deepEqual(unpackBatch(packBatch({ memories: [], rejected: [] })), { memories: [], rejected: [] });
  });
});

describe('reading an import on a second thread', () => {
  it('sends whole batches, redacted, with the skipped lines and their numbers', async () => {
    const memories = Array.from({ length: 7 }, (_, i) => memory(i));
    const file = fileWith([line(memories[0]!), 'not json', ...memories.slice(1, 5).map(line), '', '{"id":"m_X"}', ...memories.slice(5).map(line), ''].join('\n'));
    const fd = openSync(file, 'r');
    const batches = await collect(readImportBatches(fd, { batchSize: 3, patterns: [/body 4/g], projectRoot: tempDir() }));
    closeSync(fd);
    assert.deepEqual(batches.map((b) => b.memories.map((m) => m.stored.id)), [memories.slice(0, 3), memories.slice(3, 6), memories.slice(6)].map((ms) => ms.map((m) => m.id)));
    assert.deepEqual(batches.flatMap((b) => b.rejected.map((r) => r.lineNumber)), [2, 8]);
    const stored = batches.flatMap((b) => b.memories);
    assert.equal(stored[3]!.stored.body, 'password = "[REDACTED:generic-assignment]"');
    assert.equal(stored[3]!.read?.body, memories[3]!.body, 'the memory as read is kept when redaction changed it');
    assert.equal(stored[4]!.stored.body, '[REDACTED:user-pattern]', "the user's patterns apply");
    assert.equal(stored[1]!.read, undefined);
  });

  it('after the thread fails, has stored whole batches only, and says so', async () => {
    const memories = Array.from({ length: 10 }, (_, i) => memory(i));
    const file = fileWith(memories.map(line).join('\n'));
    const { db } = openDatabase(path.join(tempDir(), 'memory.db'));
    const store = new MemoryStore(db);
    const fd = openSync(file, 'r');
    const workerFile = path.join(__dirname, '..', 'support', 'import', 'failingImportWorker.ts');
    await assert.rejects(async () => {
      for await (const batch of readImportBatches(fd, { batchSize: 4, patterns: [], projectRoot: tempDir(), workerFile })) store.importPrepared(batch.memories);
    }, /reader crashed/);
    closeSync(fd);
    assert.deepEqual([...store.all()].map((m) => m.id).sort(), memories.slice(0, 4).map((m) => m.id).sort());
  });
});
