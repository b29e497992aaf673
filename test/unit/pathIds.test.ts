import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NOT_ONE, PathIds, UNSEEN_PATH } from '../../server/src/store/pathIds';

describe('path numbers for scoring', () => {
  it('gives a path the same number every time, and paths of one folder the same folder number', () => {
    const ids = new PathIds();
    const a = ids.of('src/db/pool.ts');
    assert.deepEqual(ids.of('src/db/pool.ts'), a);
    const b = ids.of('src/db/conn.ts');
    assert.notEqual(b.file, a.file);
    assert.equal(b.folder, a.folder);
    assert.notEqual(ids.of('src/pool.ts').folder, a.folder);
    assert.equal(ids.of('README.md').folder, ids.of('LICENSE').folder, 'the root is a folder too');
  });

  it('finds a path no memory has as matching nothing, but its folder when that is known', () => {
    const ids = new PathIds();
    const pool = ids.of('src/db/pool.ts');
    assert.deepEqual(ids.find('src/db/pool.ts'), pool);
    assert.deepEqual(ids.find('src/db/new.ts'), { file: UNSEEN_PATH.file, folder: pool.folder });
    assert.deepEqual(ids.find('lib/new.ts'), UNSEEN_PATH);
    // find gives nothing out: a later row with that path gets a number of its own.
    assert.ok(ids.of('lib/new.ts').file >= 0);
  });

  it('numbers a row by its one file, and by nothing when it has none or several', () => {
    const ids = new PathIds();
    assert.deepEqual(ids.sole([]), { soleFile: NOT_ONE, soleFolder: NOT_ONE });
    assert.deepEqual(ids.sole(['a.ts', 'b.ts']), { soleFile: NOT_ONE, soleFolder: NOT_ONE });
    const one = ids.sole(['src/a.ts']);
    assert.deepEqual(one, { soleFile: ids.find('src/a.ts').file, soleFolder: ids.find('src/a.ts').folder });
  });
});
