import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { databasePathFor, engramHome, resolveProjectRoot, toProjectPath } from '../../server/src/store/paths';
import { tempDir } from '../support/tempDirs';

describe('project paths', () => {
  it('keeps the database in ENGRAM_HOME, keyed by the absolute project root, never in the project', () => {
    const env = { ENGRAM_HOME: '/data/engram' };
    const file = databasePathFor('/work/shop', env);
    assert.match(file, /^\/data\/engram\/projects\/shop-[0-9a-f]{16}\/memory\.db$/);
    assert.equal(databasePathFor('/work/shop/', env), file);
    assert.notEqual(databasePathFor('/other/shop', env), file);
  });

  it('uses XDG_DATA_HOME, else ~/.local/share, when ENGRAM_HOME is not set', () => {
    if (process.platform !== 'linux') return;
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
