import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { documentPath } from '../../server/src/lsp/documentPath';
import { isSameOrInside, namesBelow, pathKey } from '../../server/src/paths/pathIdentity';
import { toProjectPath } from '../../server/src/paths/engramPaths';
import { hostPaths, platformPaths } from '../../server/src/paths/platformPaths';

const windows = platformPaths('win32');
const mac = platformPaths('darwin');
const linux = platformPaths('linux');

describe('the platform a path belongs to', () => {
  it('is Windows paths and case-insensitive on win32, POSIX paths on macOS (case-insensitive) and Linux (case-sensitive)', () => {
    assert.equal(windows.path.sep, '\\');
    assert.equal(windows.caseInsensitive, true);
    assert.equal(mac.path.sep, '/');
    assert.equal(mac.caseInsensitive, true);
    assert.equal(linux.path.sep, '/');
    assert.equal(linux.caseInsensitive, false);
  });

  it('is the running platform unless a caller says otherwise', () => {
    assert.equal(hostPaths.platform, process.platform);
  });
});

describe('one key per file or folder, however it is spelled', () => {
  it('on Windows: drive letter case, separators, case of names and a trailing separator do not count', () => {
    const key = pathKey('C:\\Repo\\src\\db.ts', windows);
    assert.equal(pathKey('c:/repo/src/db.ts', windows), key);
    assert.equal(pathKey('C:\\REPO\\Src\\DB.TS', windows), key);
    assert.equal(pathKey('C:\\Repo\\', windows), pathKey('c:\\repo', windows));
    assert.notEqual(pathKey('D:\\Repo', windows), pathKey('C:\\Repo', windows));
  });

  it('on Windows: a UNC share is one folder however its server and share are spelled', () => {
    assert.equal(pathKey('\\\\Server\\Share\\Repo', windows), pathKey('//server/share/repo', windows));
    assert.notEqual(pathKey('\\\\server\\share\\repo', windows), pathKey('C:\\server\\share\\repo', windows));
  });

  it('on macOS: case does not count; on Linux it does', () => {
    assert.equal(pathKey('/Users/me/Repo', mac), pathKey('/users/me/repo/', mac));
    assert.notEqual(pathKey('/home/me/Repo', linux), pathKey('/home/me/repo', linux));
    assert.equal(pathKey('/home/me/repo/', linux), '/home/me/repo');
  });
});

describe('whether a file is inside a folder', () => {
  it('compares the folder name by name, in the file system’s case rules, and keeps the file’s own spelling below it', () => {
    assert.deepEqual(namesBelow('C:\\Repo', 'c:/repo/src/DB.ts', windows), ['src', 'DB.ts']);
    assert.deepEqual(namesBelow('c:\\repo', 'C:\\Repo', windows), []);
    assert.equal(namesBelow('C:\\Repo', 'C:\\Repository\\a.ts', windows), null, 'a sibling sharing a prefix is outside');
    assert.equal(namesBelow('C:\\Repo', 'D:\\Repo\\a.ts', windows), null);
    assert.deepEqual(namesBelow('/Users/me/Repo', '/users/me/repo/src/a.ts', mac), ['src', 'a.ts']);
    assert.equal(namesBelow('/home/me/Repo', '/home/me/repo/src/a.ts', linux), null);
  });

  it('takes a name that only starts with two dots as a name, and `..` as leaving the folder', () => {
    assert.deepEqual(namesBelow('/p', '/p/..cache/a', linux), ['..cache', 'a']);
    assert.equal(isSameOrInside('/p', '/p/src/../../q', linux), false);
    assert.equal(isSameOrInside('C:\\p', 'C:\\p\\src\\..\\x', windows), true);
  });
});

describe('project paths on every platform', () => {
  it('makes C:\\Repo\\src\\db.ts and c:/repo/src/db.ts one file of one project', () => {
    assert.equal(toProjectPath('C:\\Repo', 'C:\\Repo\\src\\db.ts', windows), 'src/db.ts');
    assert.equal(toProjectPath('C:\\Repo', 'c:/repo/src/db.ts', windows), 'src/db.ts');
    assert.equal(toProjectPath('c:\\repo', 'C:\\Repo\\src\\db.ts', windows), 'src/db.ts');
    assert.equal(toProjectPath('C:\\Repo', 'src\\db.ts', windows), 'src/db.ts', 'relative to the project');
    assert.equal(toProjectPath('C:\\Repo', 'D:\\Repo\\src\\db.ts', windows), null);
    assert.equal(toProjectPath('C:\\Repo', 'C:\\Repo', windows), null);
  });

  it('finds a project file on a network share', () => {
    assert.equal(toProjectPath('\\\\server\\share\\Repo', '//SERVER/share/repo/lib/a.ts', windows), 'lib/a.ts');
  });

  it('on macOS accepts the root in another case, on Linux does not', () => {
    assert.equal(toProjectPath('/Users/me/Repo', '/users/me/repo/src/db.ts', mac), 'src/db.ts');
    assert.equal(toProjectPath('/home/me/Repo', '/home/me/repo/src/db.ts', linux), null);
  });
});

describe('the file a document URI names', () => {
  it('turns a Windows file URI into a Windows path (vscode-uri lower-cases the drive letter)', () => {
    assert.equal(documentPath('file:///c%3A/Repo/src/db.ts', windows), 'c:\\Repo\\src\\db.ts');
    assert.equal(documentPath('file:///C:/Repo/My%20Docs/a.ts', windows), 'c:\\Repo\\My Docs\\a.ts');
  });

  it('turns a UNC file URI into a UNC path', () => {
    assert.equal(documentPath('file://server/share/Repo/a.ts', windows), '\\\\server\\share\\Repo\\a.ts');
  });

  // vscode-uri spells a path with the separators of the machine it runs on: `\` on a Windows host.
  it('turns a POSIX file URI into a POSIX path, and anything but a file into nothing', { skip: process.platform === 'win32' }, () => {
    assert.equal(documentPath('file:///home/me/My%20Repo/a.ts', linux), '/home/me/My Repo/a.ts');
    assert.equal(documentPath('untitled:Untitled-1', linux), null);
    assert.equal(documentPath('git:/home/me/repo/a.ts?ref', linux), null);
  });

  it('gives the project file a terminal spells with a capital drive letter', () => {
    const file = documentPath('file:///c%3A/Repo/src/db.ts', windows)!;
    assert.equal(toProjectPath('C:\\Repo', file, windows), 'src/db.ts');
  });
});
