import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { asStoreError, type StorePlace } from '../../server/src/store/storeProblem';
import { tempDir } from '../support/tempDirs';

function sqliteError(code: string, message = 'SQLite says no'): Error {
  return Object.assign(new Error(message), { name: 'SqliteError', code });
}

function fsError(code: string, file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${file}`), { code, path: file });
}

describe('what a failing store means for the user', () => {
  const home = tempDir('engram-home-');
  const place: StorePlace = { databaseFile: path.join(home, 'projects', 'demo-0123', 'memory.db'), home, homeFromEnv: true };

  it('names the problem of each SQLite failure, extended codes included', () => {
    const problems = ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'SQLITE_READONLY', 'SQLITE_READONLY_DIRECTORY', 'SQLITE_FULL', 'SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CANTOPEN', 'SQLITE_IOERR_WRITE'].map((code) => asStoreError(sqliteError(code), place)?.problem);
    assert.deepEqual(problems, ['locked', 'locked', 'locked', 'read-only', 'read-only', 'full', 'damaged', 'damaged', 'no-access', 'disk-error']);
  });

  it('says each in one line naming the database, with what to do', () => {
    const locked = asStoreError(sqliteError('SQLITE_BUSY'), place)!;
    assert.equal(locked.message, `the memory database ${place.databaseFile} is locked by another process (the memory server, a hook, an MCP server or an import is writing to it); try again in a moment`);
    assert.match(asStoreError(sqliteError('SQLITE_CORRUPT', 'database disk image is malformed'), place)!.message, /is damaged \(database disk image is malformed\); `engram doctor --repair` keeps every memory that can still be read$/);
    for (const code of ['SQLITE_BUSY', 'SQLITE_READONLY', 'SQLITE_FULL', 'SQLITE_CORRUPT', 'SQLITE_CANTOPEN']) assert.doesNotMatch(asStoreError(sqliteError(code), place)!.message, /\n/);
  });

  it('leaves other failures alone: bugs keep their stack, and files the user named are theirs to explain', () => {
    assert.equal(asStoreError(new TypeError('x is undefined'), place), null);
    assert.equal(asStoreError(sqliteError('SQLITE_ERROR'), place), null, 'a bad statement is a bug');
    assert.equal(asStoreError(fsError('EACCES', '/somewhere/else/export.jsonl'), place), null);
  });

  it('explains the data folder: a file where a folder belongs, no permission, a read-only or full file system', () => {
    const fileHome = path.join(tempDir(), 'engram');
    writeFileSync(fileHome, '');
    const misplaced = asStoreError(fsError('ENOTDIR', path.join(fileHome, 'projects', 'x')), { ...place, home: fileHome });
    assert.equal(misplaced?.problem, 'not-a-folder');
    assert.match(misplaced!.message, /^ENGRAM_HOME \(.*engram\) is a file, not a folder/);
    writeFileSync(path.join(home, 'projects'), '');
    assert.match(asStoreError(fsError('ENOTDIR', path.join(home, 'projects', 'x')), place)!.message, /\/projects is a file where ENGRAM_HOME \(.*\) needs a folder/);
    assert.equal(asStoreError(fsError('EACCES', path.join(home, 'projects')), place)?.problem, 'no-access');
    assert.equal(asStoreError(fsError('EROFS', path.join(home, 'projects')), place)?.problem, 'read-only');
    assert.equal(asStoreError(fsError('ENOSPC', path.join(home, 'projects')), place)?.problem, 'full');
    assert.match(asStoreError(fsError('EACCES', home), { ...place, homeFromEnv: false })!.message, /^Engram's data folder .* cannot be read or written by this user/);
  });
});
