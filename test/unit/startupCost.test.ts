import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isWordCharacter, queryTerms } from '../../server/src/recall/terms';
import { openDatabase } from '../../server/src/store/database';
import { lazyStatements } from '../../server/src/store/lazyStatements';
import { randomBytes, sha256Hex, sha256HexOfBytes } from '../../server/src/util/hashing';
import { tempDir } from '../support/tempDirs';

// What short commands (hooks, `engram recall`) avoid loading or building at startup must still
// give exactly what the straightforward code gave.
describe('cheap startup, same results', () => {
  it('hashes texts and bytes as node:crypto does, short (in JS) and long (native)', () => {
    const texts = ['', '/work/shop', 'naïve café — 数据库 🚀', 'lone \ud800 surrogate', 'x'.repeat(4095), 'y'.repeat(4096), 'z'.repeat(200_000)];
    for (const text of texts) {
      assert.equal(sha256Hex(text), createHash('sha256').update(text, 'utf8').digest('hex'), `text of ${text.length} chars`);
      const bytes = Buffer.from(text, 'utf8');
      assert.equal(sha256HexOfBytes(bytes), createHash('sha256').update(bytes).digest('hex'), `${bytes.length} bytes`);
    }
    const random = randomBytes(16);
    assert.equal(random.length, 16);
    assert.notDeepEqual(random, randomBytes(16));
  });

  it('prepares a statement only when it is first used, once', () => {
    const { db } = openDatabase(path.join(tempDir(), 'memory.db'));
    try {
      let prepared = 0;
      const statements = lazyStatements({
        count: () => {
          prepared++;
          return db.prepare('SELECT count(*) AS n FROM memories');
        },
        broken: () => db.prepare('SELECT no_such_column FROM memories'),
      });
      assert.equal(prepared, 0);
      const first = statements.count;
      assert.deepEqual(first.get(), { n: 0 });
      assert.equal(statements.count, first, 'the statement prepared at first use is the one kept');
      assert.equal(prepared, 1);
      // A broken statement fails where it is used, with SQLite's message.
      assert.throws(() => statements.broken.get(), /no such column/);
    } finally {
      db.close();
    }
  });

  it('finds the same query words in ASCII text by the fast path as by the Unicode one', () => {
    const ascii = 'Why does parseConfig retry HTTPServer_connections 3 times in src/db/pool.ts?';
    // A non-ASCII word at the end sends the text down the Unicode path; its words come last.
    const unicode = queryTerms(`${ascii} über`);
    assert.deepEqual(queryTerms(ascii), unicode.slice(0, unicode.length - 1));
    assert.deepEqual(queryTerms('Fehler beim Öffnen der Datenbank'), ['fehler', 'beim', 'öffnen', 'der', 'datenbank']);
    assert.ok(isWordCharacter('a') && isWordCharacter('Z') && isWordCharacter('7') && isWordCharacter('é') && isWordCharacter('数'));
    assert.ok(!isWordCharacter(' ') && !isWordCharacter('_') && !isWordCharacter('.') && !isWordCharacter('—'));
  });
});
