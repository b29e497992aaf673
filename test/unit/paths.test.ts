import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { databaseLocations, databasePathFor, engramHome, resolveProjectRoot, toProjectPath } from '../../server/src/paths/engramPaths';
import { platformPaths } from '../../server/src/paths/platformPaths';
import { tempDir } from '../support/tempDirs';

const windows = platformPaths('win32');
const mac = platformPaths('darwin');
const linux = platformPaths('linux');

/** Where Engram 0.1 kept a project's database: keyed by the root exactly as it was spelled. */
function databaseBeforeCaseFolding(home: string, root: string, p: typeof path.posix): string {
  const digest = createHash('sha256').update(root).digest('hex').slice(0, 16);
  return p.join(home, 'projects', `${p.basename(root)}-${digest}`, 'memory.db');
}

/** Makes an (empty) database file where an older Engram would have left one. */
function leaveDatabaseAt(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '');
}

describe('project paths', () => {
  it('keeps the database in ENGRAM_HOME, keyed by the absolute project root, never in the project', () => {
    const env = { ENGRAM_HOME: '/data/engram' };
    const file = databasePathFor('/work/shop', env);
    assert.match(file, /^\/data\/engram\/projects\/shop-[0-9a-f]{16}\/memory\.db$/);
    assert.equal(databasePathFor('/work/shop/', env), file);
    assert.notEqual(databasePathFor('/other/shop', env), file);
  });

  it('uses XDG_DATA_HOME, else ~/.local/share, when ENGRAM_HOME is not set', { skip: process.platform !== 'linux' }, () => {
    assert.equal(engramHome({ HOME: '/home/u' }), '/home/u/.local/share/engram');
    assert.equal(engramHome({ HOME: '/home/u', XDG_DATA_HOME: '/x' }), '/x/engram');
  });

  it('resolves a subfolder to the enclosing git root', () => {
    const root = tempDir();
    mkdirSync(path.join(root, '.git'));
    mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
    assert.equal(resolveProjectRoot(path.join(root, 'src', 'deep')), root);
    assert.equal(resolveProjectRoot(path.join(root, 'src', 'deep', 'file.ts')), root);
  });

  it('treats a .git file (worktree, submodule) as a git root too', () => {
    const root = tempDir();
    writeFileSync(path.join(root, '.git'), 'gitdir: /elsewhere\n');
    mkdirSync(path.join(root, 'pkg'));
    assert.equal(resolveProjectRoot(path.join(root, 'pkg')), root);
  });

  it('without git, resolves a subfolder to the nearest ancestor that already has a database', () => {
    const root = tempDir();
    const env = { ENGRAM_HOME: tempDir() };
    mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    assert.equal(resolveProjectRoot(path.join(root, 'a', 'b'), env), path.join(root, 'a', 'b'));
    const db = databasePathFor(root, env);
    mkdirSync(path.dirname(db), { recursive: true });
    writeFileSync(db, '');
    assert.equal(resolveProjectRoot(path.join(root, 'a', 'b'), env), root);
  });

  it('makes project-relative paths with forward slashes and rejects files outside', () => {
    assert.equal(toProjectPath('/p', '/p/src/a.ts'), 'src/a.ts');
    assert.equal(toProjectPath('/p', 'src/a.ts'), 'src/a.ts');
    assert.equal(toProjectPath('/p', '/q/a.ts'), null);
    assert.equal(toProjectPath('/p', '/p'), null);
  });
});

describe('the data folder on each platform', () => {
  it('on Windows is %LOCALAPPDATA%\\engram, else AppData\\Local in the user profile', () => {
    const env = { USERPROFILE: 'C:\\Users\\Me', LOCALAPPDATA: 'D:\\Local' };
    assert.equal(engramHome(env, windows), 'D:\\Local\\engram');
    assert.equal(engramHome({ USERPROFILE: 'C:\\Users\\Me' }, windows), 'C:\\Users\\Me\\AppData\\Local\\engram');
    assert.equal(engramHome({ USERPROFILE: 'C:\\Users\\Me', HOME: '/c/msys/home/me' }, windows), 'C:\\Users\\Me\\AppData\\Local\\engram', 'USERPROFILE, not a shell’s HOME');
  });

  it('on macOS is ~/Library/Application Support/engram, whatever XDG says', () => {
    assert.equal(engramHome({ HOME: '/Users/me', XDG_DATA_HOME: '/x' }, mac), '/Users/me/Library/Application Support/engram');
  });

  it('on Linux is $XDG_DATA_HOME/engram, else ~/.local/share/engram; a relative XDG_DATA_HOME is ignored, as the spec says', () => {
    assert.equal(engramHome({ HOME: '/home/me' }, linux), '/home/me/.local/share/engram');
    assert.equal(engramHome({ HOME: '/home/me', XDG_DATA_HOME: '/data' }, linux), '/data/engram');
    assert.equal(engramHome({ HOME: '/home/me', XDG_DATA_HOME: 'data' }, linux), '/home/me/.local/share/engram');
  });

  it('is ENGRAM_HOME on every platform when it is set', () => {
    assert.equal(engramHome({ ENGRAM_HOME: 'E:\\engram', LOCALAPPDATA: 'D:\\Local' }, windows), 'E:\\engram');
    assert.equal(engramHome({ ENGRAM_HOME: '/data/engram/', HOME: '/Users/me' }, mac), '/data/engram');
    assert.equal(engramHome({ ENGRAM_HOME: '/data/engram', XDG_DATA_HOME: '/x' }, linux), '/data/engram');
  });
});

describe('one database per project, however its root is spelled', () => {
  it('on Windows: C:\\Repo, c:/repo and C:\\REPO\\ are one database', () => {
    const env = { LOCALAPPDATA: 'C:\\Users\\Me\\AppData\\Local' };
    const file = databasePathFor('C:\\Repo', env, windows);
    assert.match(file, /^C:\\Users\\Me\\AppData\\Local\\engram\\projects\\repo-[0-9a-f]{16}\\memory\.db$/);
    assert.equal(databasePathFor('c:/repo', env, windows), file);
    assert.equal(databasePathFor('C:\\REPO\\', env, windows), file);
    assert.notEqual(databasePathFor('D:\\Repo', env, windows), file);
  });

  it('on macOS: /Users/me/Repo and /users/me/repo are one database; on Linux they are two', () => {
    const env = { ENGRAM_HOME: '/data/engram' };
    assert.equal(databasePathFor('/Users/me/Repo', env, mac), databasePathFor('/users/me/repo', env, mac));
    assert.notEqual(databasePathFor('/home/me/Repo', env, linux), databasePathFor('/home/me/repo', env, linux));
  });

  it('on Linux is where it always was: keyed by the root exactly as it is', () => {
    const locations = databaseLocations('/work/Shop', { ENGRAM_HOME: '/data/engram' }, linux);
    assert.equal(locations.current, databaseBeforeCaseFolding('/data/engram', '/work/Shop', path.posix));
    assert.deepEqual(locations.earlier, []);
  });

  it('on Windows looks for a database made before keys ignored case under either case of drive letter', () => {
    const env = { LOCALAPPDATA: 'C:\\Local' };
    const fromTerminal = databaseLocations('C:\\Repo', env, windows);
    const fromVsCode = databaseLocations('c:\\Repo', env, windows);
    assert.equal(fromTerminal.current, fromVsCode.current);
    assert.deepEqual([...fromTerminal.earlier].sort(), [...fromVsCode.earlier].sort(), 'VS Code’s c:\\Repo database is found from a terminal’s C:\\Repo');
    assert.deepEqual([...fromTerminal.earlier].sort(), [databaseBeforeCaseFolding('C:\\Local\\engram', 'C:\\Repo', path.win32), databaseBeforeCaseFolding('C:\\Local\\engram', 'c:\\Repo', path.win32)].sort());
  });

  it('keeps using a database made before keys ignored case, so no memories are lost', () => {
    const env = { ENGRAM_HOME: tempDir() };
    const older = databaseBeforeCaseFolding(env.ENGRAM_HOME, '/Users/me/Repo', path.posix);
    assert.equal(databasePathFor('/Users/me/Repo', env, mac), databaseLocations('/Users/me/Repo', env, mac).current, 'none yet: the new key');
    leaveDatabaseAt(older);
    assert.equal(databasePathFor('/Users/me/Repo', env, mac), older);
    assert.equal(databasePathFor('/Users/me/Repo/', env, mac), older);
  });

  it('prefers the older database over a newer one, and falls back to the new key for a spelling that never had one', () => {
    const env = { ENGRAM_HOME: tempDir() };
    const { current, earlier } = databaseLocations('/Users/me/Repo', env, mac);
    leaveDatabaseAt(current);
    leaveDatabaseAt(earlier[0]!);
    assert.equal(databasePathFor('/Users/me/Repo', env, mac), earlier[0]);
    assert.equal(databasePathFor('/users/me/REPO', env, mac), current);
  });
});

