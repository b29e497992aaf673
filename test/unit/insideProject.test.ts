import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isProjectPath } from '../../server/src/memory/projectPath';
import { ProjectPathCheck } from '../../server/src/paths/insideProject';
import { tempDir } from '../support/tempDirs';

describe('places inside the project', () => {
  it('are relative paths without ".." or an absolute start', () => {
    for (const good of ['src/db.ts', 'README.md', '.github/workflows/ci.yml', 'a..b/c']) assert.equal(isProjectPath(good), true, good);
    for (const bad of ['', '/etc/shadow', '../x', 'src/../../x', 'src//db.ts', './src', 'C:/Windows', 'c:x', '\\\\server\\share', 'src\\..\\..\\x']) assert.equal(isProjectPath(bad), false, bad);
  });

  it('are checked with links followed, for files that exist and for those that do not yet', { skip: process.platform === 'win32' && 'symbolic links' }, () => {
    const root = tempDir('engram-project-');
    const outside = tempDir('engram-outside-');
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'db.ts'), '');
    writeFileSync(path.join(outside, 'secret'), '');
    symlinkSync(path.join(outside, 'secret'), path.join(root, 'src', 'secret.ts'));
    symlinkSync(outside, path.join(root, 'linked'));
    symlinkSync(path.join(root, 'src', 'db.ts'), path.join(root, 'alias.ts'));
    const check = new ProjectPathCheck(root);
    assert.equal(check.problem('src/db.ts'), null);
    assert.equal(check.problem('alias.ts'), null, 'a link to a file inside is inside');
    assert.equal(check.problem('src/new/file.ts'), null, 'a file to come, in a folder inside');
    assert.match(check.problem('src/secret.ts')!, /^src\/secret\.ts leads out of the project, to .*secret \(a symbolic link\)/);
    assert.match(check.problem('linked/secret')!, /leads out of the project/);
    assert.match(check.problem('linked/not-yet.ts')!, /leads out of the project, to .*not-yet\.ts/, 'below a link out, even what does not exist');
    assert.match(check.problem('../x')!, /is not a path inside the project/);
  });
});
