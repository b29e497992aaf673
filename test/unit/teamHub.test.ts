// Issue 24: the team hub's pure parts — project identity, how the hub URL is shown, the password
// file, and what belongs on the hub. The sync itself runs against a real PostgreSQL in
// test/integration/teamHubSync.test.ts and teamHub.test.ts.
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { belongsOnHub } from '../../server/src/hub/hubRecord';
import { checkHubUrl, describeHubUrl, hubSettings, withoutPassword } from '../../server/src/hub/hubSettings';
import { passwordFromFile } from '../../server/src/hub/passwordFile';
import { normalizeRemote } from '../../server/src/hub/projectIdentity';
import { grantStatements } from '../../server/src/hub/grantAccess';
import { libpqSslmode } from '../../server/src/hub/hubConnection';
import { completeMemory } from '../../server/src/memory/newMemory';
import type { Memory, NewMemory } from '../../server/src/memory/types';
import { Redactor } from '../../server/src/secrets/redact';
import { tempDir } from '../support/tempDirs';

const memory = (input: Partial<NewMemory> & { status?: Memory['status'] } = {}): Memory => ({ ...completeMemory({ kind: 'decision', title: 'A decision', source: 'user', ...input }, 0), status: input.status ?? 'active' });
const TEAM_ID = 't_ABCDEFGHJKMNPQRSTVWX';

describe('team hub: project identity', () => {
  it('maps every clone URL of one repository to one project', () => {
    const expected = 'github.com/Org/Repo';
    for (const remote of ['git@github.com:Org/Repo.git', 'https://github.com/Org/Repo', 'https://user:token@GitHub.com/Org/Repo.git', 'ssh://git@github.com:22/Org/Repo.git', 'ssh://git@github.com/Org/Repo/', 'git://github.com/Org/Repo.git']) {
      assert.equal(normalizeRemote(remote), expected, remote);
    }
  });
  it('keeps a port that is not the default, and names a folder remote by its path', () => {
    assert.equal(normalizeRemote('https://git.example.com:8443/team/app.git'), 'git.example.com:8443/team/app');
    assert.equal(normalizeRemote('/srv/git/app.git'), 'file:/srv/git/app');
    assert.equal(normalizeRemote('file:///srv/git/app.git'), 'file:/srv/git/app');
  });
});

describe('team hub: the URL and its credentials', () => {
  it('shows user, host, database and sslmode, never the password or other parameters', () => {
    assert.equal(describeHubUrl('postgres://alice:s3cret-pw@db.example.com:5432/engram?sslmode=verify-full&password=other'), 'postgres://alice@db.example.com:5432/engram?sslmode=verify-full');
    assert.equal(describeHubUrl('not a url s3cret'), '(an unreadable URL)');
  });
  it('config.json keeps the URL without its password (the memory server keeps that in memory)', () => {
    assert.equal(withoutPassword('postgres://alice:s3cret-pw@db.example.com:5432/engram?sslmode=verify-full'), 'postgres://alice@db.example.com:5432/engram?sslmode=verify-full');
    assert.equal(withoutPassword('postgres://alice@db.example.com/engram?password=s3cret-pw&sslmode=require'), 'postgres://alice@db.example.com/engram?sslmode=require');
    assert.equal(withoutPassword('postgres://alice@db.example.com/engram'), 'postgres://alice@db.example.com/engram', 'a URL without a password is kept as written');
    assert.equal(withoutPassword(''), '');
    const home = tempDir('engram-hub-setting-');
    const env = { ENGRAM_HOME: home };
    assert.equal(hubSettings(env, 'postgres://alice:s3cret-pw@db.example.com/engram')!.url, 'postgres://alice:s3cret-pw@db.example.com/engram', "the server's own setting is used as given");
  });
  it('the redactor removes a password from a postgres URL in any text (logs, errors)', () => {
    const text = new Redactor().text('connect failed for postgres://alice:Pg4xKq9Zt2Lm8Rw3@db.internal:5432/engram');
    assert.ok(!text.includes('Pg4xKq9Zt2Lm8Rw3'), text);
  });
  it('takes the URL from ENGRAM_TEAM_URL over config.json, and refuses another scheme in one line', () => {
    const home = tempDir();
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ team: { url: 'postgres://x@config-host/db', syncAll: true } }));
    assert.deepEqual(hubSettings({ ENGRAM_HOME: home }), { url: 'postgres://x@config-host/db', syncAll: true });
    assert.equal(hubSettings({ ENGRAM_HOME: home, ENGRAM_TEAM_URL: 'postgres://y@env-host/db' })!.url, 'postgres://y@env-host/db');
    assert.equal(hubSettings({ ENGRAM_HOME: tempDir() }), null);
    assert.throws(() => checkHubUrl('mysql://db/x'), /must start with postgres:\/\//);
  });
  it('reads the password file as libpq does: first match, wildcards, escapes, and not when others may read it', () => {
    const file = path.join(tempDir(), 'pgpass');
    writeFileSync(file, '# comment\nother:5432:*:*:nope\ndb.example.com:*:engram:alice:pa\\:ss\n*:*:*:*:fallback\n', { mode: 0o600 });
    const env = { PGPASSFILE: file };
    assert.equal(passwordFromFile({ host: 'db.example.com', port: 6543, database: 'engram', user: 'alice' }, env), 'pa:ss');
    assert.equal(passwordFromFile({ host: 'elsewhere', port: 5432, database: 'x', user: 'bob' }, env), 'fallback');
    chmodSync(file, 0o644);
    assert.equal(passwordFromFile({ host: 'elsewhere', port: 5432, database: 'x', user: 'bob' }, env), undefined);
  });
  it('sslmode in the URL keeps its libpq meaning (require: encrypted, unverified; verify-full: checked)', () => {
    assert.equal(libpqSslmode('postgres://a@h/db?sslmode=require'), 'postgres://a@h/db?sslmode=require&uselibpqcompat=true');
    assert.equal(libpqSslmode('postgres://a@h/db'), 'postgres://a@h/db');
  });
  it('grant SQL quotes the role', () => {
    assert.ok(grantStatements('dev"team').every((s) => s.includes('"dev""team"')));
  });
});

describe('team hub: what syncs', () => {
  it('shared memories always; with syncAll also decisions, gotchas, facts and diffs', () => {
    const shared = memory({ kind: 'constraint', meta: { team: { id: TEAM_ID } } });
    assert.equal(belongsOnHub(shared, false), true);
    assert.equal(belongsOnHub(memory({ kind: 'decision' }), false), false);
    for (const kind of ['decision', 'gotcha', 'fact', 'diff'] as const) assert.equal(belongsOnHub(memory({ kind }), true), true, kind);
    assert.equal(belongsOnHub(memory({ kind: 'note' }), true), false);
  });
  it('never prompts, transcript summaries, private memories, or what is archived or forgotten', () => {
    assert.equal(belongsOnHub(memory({ kind: 'intent', meta: { team: { id: TEAM_ID } } }), true), false);
    assert.equal(belongsOnHub(memory({ kind: 'summary', source: 'claude' }), true), false);
    assert.equal(belongsOnHub(memory({ kind: 'decision', meta: { private: true } }), true), false);
    assert.equal(belongsOnHub(memory({ kind: 'decision', status: 'archived' }), true), false);
    assert.equal(belongsOnHub(memory({ kind: 'decision', status: 'forgotten' }), true), false);
  });
  it('a line received from the team file is the file\'s to carry; one received from the hub syncs its edits', () => {
    assert.equal(belongsOnHub(memory({ meta: { team: { id: TEAM_ID, received: true } } }), false), false);
    assert.equal(belongsOnHub(memory({ meta: { hub: { key: TEAM_ID, received: true } } }), false), true);
  });
});
