import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import type { Connection } from 'vscode-languageserver/node';
import { TeamFollower } from '../../server/src/lsp/teamFollower';
import type { ProjectRegistry } from '../../server/src/lsp/projectRegistry';
import { databasePathFor } from '../../server/src/paths/engramPaths';
import { openProject, type Project } from '../../server/src/project';
import { openDatabase } from '../../server/src/store/database';
import { shareMemory } from '../../server/src/team/shareMemory';
import { teamFilePath } from '../../server/src/team/teamFile';
import { isolatedEnv, tempDir } from '../support/tempDirs';

function project(name: string, env: NodeJS.ProcessEnv): Project {
  const root = path.join(tempDir(`engram-follower-${name}-`), 'project');
  mkdirSync(path.join(root, '.git'), { recursive: true });
  return openProject(root, env);
}

describe("the memory server's team-file follower", () => {
  const busy = process.env.ENGRAM_BUSY_TIMEOUT_MS;
  afterEach(() => {
    if (busy === undefined) delete process.env.ENGRAM_BUSY_TIMEOUT_MS;
    else process.env.ENGRAM_BUSY_TIMEOUT_MS = busy;
  });

  it('applies a file again at the next check when its apply failed (a locked database), saying so once', () => {
    // Writes wait 50 ms for a lock, not seconds.
    process.env.ENGRAM_BUSY_TIMEOUT_MS = '50';
    const env = isolatedEnv();
    const author = project('author', env);
    const shared = author.store.add({ kind: 'gotcha', title: 'findCustomer returns null for archived customers', source: 'user', files: ['src/db.ts'] });
    shareMemory(author, shared.id);
    const reader = project('reader', env);
    const errors: string[] = [];
    const connection = { console: { error: (m: string) => errors.push(m), warn: () => {}, info: () => {} } } as unknown as Connection;
    let applied = 0;
    const follower = new TeamFollower(connection, { openProjects: () => [reader] } as unknown as ProjectRegistry, () => applied++);
    follower.check();
    mkdirSync(path.dirname(teamFilePath(reader.root)), { recursive: true });
    copyFileSync(teamFilePath(author.root), teamFilePath(reader.root));
    // Another process holds the write lock while the file changes.
    const other = openDatabase(databasePathFor(reader.root, env)).db;
    other.prepare('BEGIN IMMEDIATE').run();
    follower.check();
    follower.check();
    assert.equal(errors.length, 1, 'said once');
    assert.match(errors[0]!, /Reading the team memory of .* failed: SqliteError: database is locked/);
    assert.equal(reader.team.marked().length, 0);
    other.prepare('ROLLBACK').run();
    follower.check();
    assert.deepEqual(reader.team.marked().map((m) => m.title), ['findCustomer returns null for archived customers'], 'applied once the lock is gone');
    assert.equal(applied, 1);
    assert.equal(errors.length, 1);
    other.close();
    author.close();
    reader.close();
  });
});
