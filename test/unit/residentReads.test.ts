import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { anchorLines } from '../../server/src/anchors/anchorFromText';
import { openDatabase } from '../../server/src/store/database';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { UsageStore } from '../../server/src/store/usageStore';
import { tempDir } from '../support/tempDirs';

const SOURCE = ['import { pool } from "./pool";', '', 'export function query(sql: string) {', '  return pool.run(sql);', '}', ''].join('\n');

/** The memory server's store and a short command's, on one database. */
function stores() {
  const file = path.join(tempDir(), 'memory.db');
  const serverDb = openDatabase(file).db;
  const otherDb = openDatabase(file).db;
  return { server: new MemoryStore(serverDb, undefined, { resident: true }), other: new MemoryStore(otherDb), serverUsage: new UsageStore(serverDb, true), otherUsage: new UsageStore(otherDb) };
}

describe('what the memory server reads from its resident rows', () => {
  it('reads whole memories (tags from the scoring rows, anchors where there are) exactly as a short command does', () => {
    const { server, other } = stores();
    const ids = [
      other.add({ kind: 'constraint', title: 'rule', body: 'body', why: 'because', source: 'user', pin: 'hard', files: ['b.ts', 'a.ts'], symbols: ['A.b', 'A'], anchor: anchorLines('a.ts', SOURCE, 2, 4), meta: { n: 1 } }).id,
      other.add({ kind: 'note', title: 'plain', body: 'no tags', source: 'user' }).id,
      other.add({ kind: 'diff', title: 'edit', body: '+x', source: 'claude', files: ['c.ts'], symbols: ['query'] }).id,
    ];
    const rowids = server.reads.rowidsRecent(10);
    server.reads.keepEveryCandidate();
    assert.deepEqual(server.reads.byRowids(rowids), other.reads.byRowids(rowids));
    assert.equal(server.reads.byRowids(rowids).length, ids.length);
    // Changed by the other connection: the server reads the new version, anchor and tags included.
    const rule = other.get(ids[0]!)!;
    other.update({ ...rule, files: ['d.ts'], symbols: [], anchor: null, updatedAt: rule.updatedAt + 1 });
    const [reread] = server.reads.byRowids([rowids.find((r) => server.reads.byRowids([r])[0]?.id === ids[0])!]);
    assert.deepEqual(reread?.files, ['d.ts']);
    assert.equal(reread?.anchor, null);
    assert.deepEqual(server.reads.byRowids(rowids), other.reads.byRowids(rowids));
  });

  it('finds a symbol\'s memories and its members\', newest first, each once', () => {
    const { server } = stores();
    const a = server.add({ kind: 'note', title: 'class', source: 'user', symbols: ['Parser'] });
    const b = server.add({ kind: 'note', title: 'both', source: 'user', symbols: ['Parser', 'Parser.peek'] });
    const c = server.add({ kind: 'note', title: 'member', source: 'user', symbols: ['Parser.next'] });
    server.add({ kind: 'note', title: 'other', source: 'user', symbols: ['ParserError', 'Lexer.peek'] });
    const titles = (symbol: string, limit = 10) => server.reads.byRowids(server.reads.rowidsForSymbol(symbol, limit)).map((m) => m.title);
    assert.deepEqual(titles('Parser'), [c.title, b.title, a.title]);
    assert.deepEqual(titles('Parser', 2), [c.title, b.title]);
    assert.deepEqual(titles('Parser.peek'), [b.title]);
  });

  it('keeps usage counts until they change, whoever changes them', () => {
    const { other, serverUsage, otherUsage } = stores();
    const ids = [0, 1, 2].map((i) => other.add({ kind: 'note', title: `m${i}`, source: 'user' }).id);
    const rowids = other.reads.rowidsRecent(3);
    assert.equal(serverUsage.byRowid(rowids).size, 0);
    otherUsage.shown([ids[0]!, ids[1]!]);
    otherUsage.acted(ids[1]!);
    const usage = [...serverUsage.byRowid(rowids).values()].sort((x, y) => x.acted - y.acted);
    assert.deepEqual(usage, [{ shown: 1, acted: 0 }, { shown: 1, acted: 1 }]);
    assert.deepEqual(serverUsage.byRowid(rowids), otherUsage.byRowid(rowids));
  });

  it('reads usage by rowid when the table is too large to keep', () => {
    const { other, serverUsage, otherUsage } = stores();
    const ids: string[] = [];
    for (let i = 0; i < 4100; i++) ids.push(other.add({ kind: 'note', title: `m${i}`, source: 'user' }).id);
    otherUsage.shown(ids);
    otherUsage.acted(ids[7]!);
    const rowids = other.reads.rowidsRecent(4100);
    const usage = serverUsage.byRowid(rowids);
    assert.equal(usage.size, 4100);
    assert.equal([...usage.values()].filter((u) => u.acted === 1).length, 1);
  });
});

describe('whole memories by rowid', () => {
  it('returns every one asked for, in order, however many more than are kept', () => {
    const { server } = stores();
    for (let i = 0; i < 300; i++) server.add({ kind: 'note', title: `m${i}`, source: 'user', files: [`src/f${i % 7}.ts`] });
    const rowids = server.reads.rowidsRecent(300);
    const titles = server.reads.byRowids(rowids).map((m) => m.title);
    assert.deepEqual(titles, Array.from({ length: 300 }, (_, i) => `m${299 - i}`));
    assert.deepEqual(server.reads.byRowids([...rowids].reverse()).map((m) => m.title), [...titles].reverse(), 'again, partly from what is kept');
  });
});
