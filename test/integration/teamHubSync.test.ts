// Issue 24, the team hub's sync against a real PostgreSQL (test/support/postgres.ts): clients are
// real stores (SQLite files in their own ENGRAM_HOMEs) each with its own connection. The issue's
// full size (10 clients × 10,000 memories) is the bench's (`npm run bench -- team`); here 4 × 300
// keep the suite quick while every client still pushes while the others pull.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { forget } from '../../server/src/actions/status';
import { connectHub, type HubClient } from '../../server/src/hub/hubConnection';
import { grantProject } from '../../server/src/hub/grantAccess';
import { initHub } from '../../server/src/hub/hubSchema';
import { syncProject } from '../../server/src/hub/syncProject';
import { searchTeam } from '../../server/src/hub/teamSearch';
import { openProject, type Project } from '../../server/src/project';
import { teamMarkOf } from '../../server/src/team/teamMark';
import { shareMemory } from '../../server/src/team/shareMemory';
import { startPostgres, type PostgresCluster } from '../support/postgres';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const PROJECT = 'example.com/team/app';

interface Client {
  readonly project: Project;
  client: HubClient;
  readonly url: string;
}

async function newClient(url: string): Promise<Client> {
  const env = isolatedEnv();
  const root = tempDir('engram-hub-client-');
  const project = openProject(root, env);
  return { project, client: await connectHub(url), url };
}

const sync = (c: Client, project = PROJECT) => syncProject(c.project, c.client, c.url, project, true);

/** A client's active memories as the team sees them: hub key → title, body and status. */
function teamView(c: Client): Map<string, string> {
  const view = new Map<string, string>();
  const rows = c.project.store.recent(1_000_000);
  for (const memory of rows) {
    const link = c.project.hub.linkOf(memory.id);
    if (link) view.set(link.hubKey, `${memory.title}\u0000${memory.body}\u0000${memory.status}`);
  }
  return view;
}

function digest(view: Map<string, string>): string {
  const hash = createHash('sha256');
  for (const key of [...view.keys()].sort()) hash.update(`${key}\u0001${view.get(key)}\u0002`);
  return hash.digest('hex');
}

describe('team hub sync on a real PostgreSQL', () => {
  let pg: PostgresCluster;
  let adminUrl: string;
  const clients: Client[] = [];

  before(async () => {
    pg = await startPostgres();
    await pg.sql('postgres', 'CREATE DATABASE hub');
    adminUrl = pg.url('hub');
    const admin = await connectHub(adminUrl);
    await initHub(admin);
    await admin.end();
  });
  after(async () => {
    for (const c of clients) {
      await c.client.end().catch(() => undefined);
      c.project.close();
    }
    pg?.destroy();
  });

  it('init is idempotent and safe from two machines at once', async () => {
    const [one, two] = await Promise.all([connectHub(adminUrl), connectHub(adminUrl)]);
    const reports = await Promise.all([initHub(one), initHub(two)]);
    await Promise.all([one.end(), two.end()]);
    assert.deepEqual(reports.map((r) => r.from), [1, 1], 'already current: nothing to do for either');
    assert.equal(reports[0]!.hubId, reports[1]!.hubId);
    const fresh = await pg.sql('postgres', 'CREATE DATABASE hub_race').then(() => Promise.all([connectHub(pg.url('hub_race')), connectHub(pg.url('hub_race'))]));
    const raced = await Promise.all(fresh.map((c) => initHub(c)));
    await Promise.all(fresh.map((c) => c.end()));
    assert.deepEqual(raced.map((r) => r.from).sort(), [0, 1], 'one created it, the other found it done');
  });

  it('concurrent clients pushing while pulling end with identical memory sets, no duplicate, no lost write', async () => {
    const CLIENTS = 4;
    const EACH = 300;
    for (let i = 0; i < CLIENTS; i++) clients.push(await newClient(adminUrl));
    await Promise.all(
      clients.map(async (c, i) => {
        for (let round = 0; round < 6; round++) {
          c.project.transaction(() => {
            for (let n = round * (EACH / 6); n < (round + 1) * (EACH / 6); n++) c.project.store.add({ kind: 'decision', title: `Client ${i} decision ${n}`, body: `why ${i}/${n}`, source: 'user' });
          });
          await sync(c);
        }
      }),
    );
    for (const c of clients) await sync(c);
    const views = clients.map(teamView);
    for (const view of views) assert.equal(view.size, CLIENTS * EACH);
    assert.equal(new Set(views.map(digest)).size, 1, 'every client holds the same memories');
    for (const c of clients) assert.equal(c.project.store.counts().byStatus.active, CLIENTS * EACH, 'no duplicate in any store');
    const onHub = await pg.sql('hub', 'SELECT count(*)::int AS n, count(DISTINCT seq)::int AS seqs FROM engram.memories WHERE project = $1', [PROJECT]);
    assert.deepEqual(onHub.rows[0], { n: CLIENTS * EACH, seqs: CLIENTS * EACH });
  });

  it('an edit and a forget propagate; an edit that lost the race is kept as a revision', async () => {
    const [a, b] = clients as [Client, Client];
    const target = a.project.store.recent(1_000_000).find((m) => m.title === 'Client 0 decision 7')!;
    a.project.store.update({ ...target, title: 'Client 0 decision 7, edited by A', updatedAt: Date.now() });
    const inB = b.project.store.get(b.project.hub.linkByKey(a.project.hub.linkOf(target.id)!.hubKey)!.memoryId)!;
    b.project.store.update({ ...inB, title: 'Client 0 decision 7, edited by B', updatedAt: Date.now() });
    await sync(a);
    await sync(b); // B's push comes later in hub order: it wins, A's is kept as a revision.
    await sync(a);
    assert.equal(a.project.store.get(target.id)!.title, 'Client 0 decision 7, edited by B');
    const revisions = await pg.sql('hub', `SELECT record->>'title' AS title FROM engram.revisions WHERE project = $1`, [PROJECT]);
    assert.ok(revisions.rows.some((r) => r.title === 'Client 0 decision 7, edited by A'), 'the loser is kept');
    const forgotten = a.project.store.recent(1_000_000).find((m) => m.title === 'Client 0 decision 8')!;
    forget(a.project, [forgotten.id]);
    await sync(a);
    await sync(b);
    const key = a.project.hub.linkOf(forgotten.id)!.hubKey;
    assert.equal(b.project.store.get(b.project.hub.linkByKey(key)!.memoryId)!.status, 'forgotten');
    const row = await pg.sql('hub', 'SELECT deleted, record FROM engram.memories WHERE project = $1 AND key = $2', [PROJECT, key]);
    assert.deepEqual(row.rows[0], { deleted: true, record: null }, "a tombstone: the forgotten memory's text leaves the hub");
  });

  it('the hub killed in the middle of a sync, then restarted: nothing lost, nothing doubled, sync resumes', async () => {
    const [a, b] = clients as [Client, Client];
    a.project.transaction(() => {
      for (let n = 0; n < 3000; n++) a.project.store.add({ kind: 'gotcha', title: `Crash-time gotcha ${n}`, body: 'b', source: 'user' });
    });
    const syncing = sync(a).then(
      () => 'finished',
      (error: Error) => error.message,
    );
    // Killed once the hub holds part of the push: some batches committed, the rest not.
    for (;;) {
      const { rows } = await pg.sql('hub', `SELECT count(*)::int AS n FROM engram.memories WHERE record->>'title' LIKE 'Crash-time%'`);
      if (rows[0].n > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    pg.stop('immediate');
    const outcome = await syncing;
    assert.notEqual(outcome, 'finished', 'the kill interrupted the sync');
    assert.match(a.project.hub.state().lastError ?? '', /team hub postgres:\/\/engram_admin@127\.0\.0\.1/);
    assert.ok(!(a.project.hub.state().lastError ?? '').includes('admin-password'), 'no password in the recorded error');
    for (const file of [a.project.databaseFile, `${a.project.databaseFile}-wal`]) {
      if (existsSync(file)) assert.ok(!readFileSync(file).includes('admin-password'), `no password in ${path.basename(file)}`);
    }
    pg.start();
    for (const c of [a, b]) {
      await c.client.end().catch(() => undefined);
      c.client = await connectHub(adminUrl);
    }
    await sync(a);
    await sync(b);
    const views = [teamView(a), teamView(b)];
    assert.equal(views[0]!.size, 4 * 300 + 3000 - 1, 'every active memory (one was forgotten above)');
    assert.equal(digest(views[0]!), digest(views[1]!));
    const onHub = await pg.sql('hub', `SELECT count(*)::int AS n FROM engram.memories WHERE project = $1 AND record->>'title' LIKE 'Crash-time%'`, [PROJECT]);
    assert.equal(onHub.rows[0].n, 3000);
    assert.equal(b.project.store.recent(1_000_000).filter((m) => m.title.startsWith('Crash-time')).length, 3000, 'none doubled in B');
    assert.equal(a.project.hub.pendingCount(), 0);
  });

  it('a role without a grant reads nothing and writes nothing of a foreign project', async () => {
    await pg.sql('hub', `CREATE ROLE alice LOGIN PASSWORD 'alice-pw'; CREATE ROLE bob LOGIN PASSWORD 'bob-pw'`);
    const admin = await connectHub(adminUrl);
    await grantProject(admin, 'alice', 'example.com/team/alice-app');
    await grantProject(admin, 'bob', 'example.com/team/bob-app');
    await admin.end();
    const alice = await newClient(pg.url('hub', 'alice', 'alice-pw'));
    const bob = await newClient(pg.url('hub', 'bob', 'bob-pw'));
    clients.push(alice, bob);
    const secret = alice.project.store.add({ kind: 'decision', title: "Alice's project decision", source: 'user' });
    await sync(alice, 'example.com/team/alice-app');
    assert.ok(alice.project.hub.linkOf(secret.id));
    bob.project.store.add({ kind: 'decision', title: "Bob's decision", source: 'user' });
    await sync(bob, 'example.com/team/bob-app');
    const seen = await bob.client.query('SELECT count(*)::int AS n FROM engram.memories');
    assert.equal(seen.rows[0].n, 1, "bob sees only his own project's row, not alice's nor the admin's");
    await assert.rejects(sync(bob, 'example.com/team/alice-app'), /no grant for project example\.com\/team\/alice-app/);
    await assert.rejects(bob.client.query(`UPDATE engram.memories SET hash = 'x' WHERE project = 'example.com/team/alice-app' RETURNING key`).then((r) => assert.equal(r.rowCount, 0)).then(() => { throw new Error('row-level security: 0 rows'); }), /0 rows/);
    await assert.rejects(bob.client.query(`INSERT INTO engram.memories (project, key, seq, hash) VALUES ('example.com/team/alice-app', 't_X', 1, 'h')`), /row-level security/);
    const aliceRows = await pg.sql('hub', `SELECT record->>'title' AS title FROM engram.memories WHERE project = 'example.com/team/alice-app'`);
    assert.deepEqual(aliceRows.rows, [{ title: "Alice's project decision" }]);
  });

  it('team search finds words (stemmed) and identifiers by fragment, ranked, only in projects the role may read', async () => {
    const [a] = clients as [Client];
    a.project.store.add({ kind: 'gotcha', title: 'The expression parser recurses without a depth limit', body: 'Deeply nested input overflows the stack.', source: 'user', symbols: ['Parser.parseExpression'] });
    await sync(a);
    const byWords = await searchTeam(a.client, { text: 'parsers recursing', project: PROJECT, limit: 5 });
    assert.equal(byWords[0]?.record.title, 'The expression parser recurses without a depth limit');
    assert.ok(byWords[0]!.explanation.text > 0);
    const byName = await searchTeam(a.client, { text: 'parseExpression', project: PROJECT, limit: 5 });
    assert.equal(byName[0]?.record.title, 'The expression parser recurses without a depth limit');
    assert.ok(byName[0]!.explanation.names > 0);
    const bob = clients.find((c) => c.url.includes('bob'))!;
    assert.deepEqual(await searchTeam(bob.client, { text: 'parseExpression', project: null, limit: 5 }), [], "bob's role reads nothing of this project");
  });

  it('a shared constraint reaches a clone that also has it from the team file as one memory', async () => {
    const a = await newClient(adminUrl);
    const b = await newClient(adminUrl);
    clients.push(a, b);
    const rule = a.project.store.add({ kind: 'constraint', title: 'All SQL goes through query()', body: 'bound parameters only', pin: 'hard', source: 'user' });
    const shared = shareMemory(a.project, rule.id);
    await sync(a, 'example.com/team/shared');
    await sync(b, 'example.com/team/shared');
    const inB = b.project.store.recent(100).filter((m) => m.title === 'All SQL goes through query()');
    assert.equal(inB.length, 1);
    assert.equal(b.project.hub.linkOf(inB[0]!.id)!.hubKey, shared.teamId, 'keyed by its team id');
    assert.equal(teamMarkOf(inB[0]!), null, 'B has it from the hub, not the file');
  });
});
