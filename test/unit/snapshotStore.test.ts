import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../../server/src/store/database';
import { SnapshotStore } from '../../server/src/store/snapshotStore';
import { tempDir } from '../support/tempDirs';

function freshSnapshots(budget?: number): SnapshotStore {
  const { db } = openDatabase(path.join(tempDir(), 'memory.db'));
  return new SnapshotStore(db, budget);
}

describe('the last-known-content cache', () => {
  it('keeps the last content of each file and its size and mtime', () => {
    const snapshots = freshSnapshots();
    snapshots.put('src/a.ts', 'one', { size: 3, mtimeMs: 1000.7 }, 5);
    snapshots.put('src/a.ts', 'two', { size: 3, mtimeMs: 2000 }, 6);
    assert.deepEqual(snapshots.get('src/a.ts'), { path: 'src/a.ts', hash: snapshots.get('src/a.ts')!.hash, content: 'two', size: 3, mtimeMs: 2000, seenAt: 6 });
    assert.equal(snapshots.get('src/missing.ts'), null);
  });

  it('stores identical contents once and frees a blob when no file points at it', () => {
    const snapshots = freshSnapshots();
    snapshots.put('a.ts', 'same text', { size: 9, mtimeMs: 1 });
    snapshots.put('b.ts', 'same text', { size: 9, mtimeMs: 1 });
    assert.equal(snapshots.totalBytes(), 9);
    snapshots.put('a.ts', 'other', { size: 5, mtimeMs: 2 });
    assert.equal(snapshots.totalBytes(), 14);
    snapshots.remove('b.ts');
    assert.equal(snapshots.totalBytes(), 5);
  });

  it('evicts the least recently seen files beyond its byte budget, never the one just written', () => {
    const snapshots = freshSnapshots(100);
    for (let i = 0; i < 10; i++) snapshots.put(`f${i}.ts`, `${i}`.repeat(30), { size: 30, mtimeMs: i }, i);
    assert.ok(snapshots.totalBytes() <= 100);
    assert.ok(snapshots.get('f9.ts'));
    assert.equal(snapshots.get('f0.ts'), null);
    snapshots.put('huge.ts', 'x'.repeat(500), { size: 500, mtimeMs: 1 }, 99);
    assert.equal(snapshots.get('huge.ts')?.content.length, 500);
  });

  it('follows a rename', () => {
    const snapshots = freshSnapshots();
    snapshots.put('old.ts', 'text', { size: 4, mtimeMs: 1 });
    snapshots.rename('old.ts', 'new.ts');
    assert.equal(snapshots.get('old.ts'), null);
    assert.equal(snapshots.get('new.ts')?.content, 'text');
  });
});
