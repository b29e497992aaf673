// Issue 24, the team hub: two developers (two clones, two ENGRAM_HOMEs) with the real memory
// server over LSP, the real CLI and the real hook path, and a real PostgreSQL
// (test/support/postgres.ts). Nothing is committed: what B gets, B gets through the hub.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { MemorySummary, ServerStatusParams } from '../../contracts/protocol';
import type { TimelinePage, TimelineSearch, TimelineSearchScope } from '../../contracts/viewProtocol';
import { eventually } from '../support/eventually';
import { cloneOrigin, engramIn, hoverDb, newClone, openDb, pinDbRuleForTeam, seedOrigin, startServer, type Clone } from '../support/demoClones';
import { resultText, startMcp } from '../support/mcpClient';
import { startPostgres, SUPERUSER_PASSWORD, type PostgresCluster } from '../support/postgres';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const RULE = 'All SQL goes through query() with bound parameters.';
const EDITED = 'All SQL goes through query() with bound parameters; never concatenate input.';

describe('team hub on PostgreSQL, two developers', () => {
  let pg: PostgresCluster;
  const origin = path.join(tempDir('engram-hub-origin-'), 'origin.git');
  const passfile = path.join(tempDir('engram-hub-pass-'), 'pgpass');
  const homes = [isolatedEnv(), isolatedEnv()];
  const a = newClone('a', path.join(tempDir('engram-hub-a-'), 'project'), {});
  const b = newClone('b', path.join(tempDir('engram-hub-b-'), 'project'), {});
  const hover = hoverDb;
  const engram = engramIn;
  const exported = async (clone: Clone) => (await engram(clone, ['export'])).stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: string; title: string; status: string; kind: string });
  let rule: MemorySummary;

  const start = startServer;
  const open = openDb;
  const timelineSearch = (clone: Clone, scope: TimelineSearchScope, query = 'connection retries') =>
    clone.lsp.connection.sendRequest('engram/timelineSearch', { projectRoot: clone.root, query, filter: {}, limit: 20, scope }) as Promise<TimelineSearch>;
  const timelinePage = (clone: Clone) => clone.lsp.connection.sendRequest('engram/timelinePage', { projectRoot: clone.root, filter: {}, cursor: null, limit: 5 }) as Promise<TimelinePage>;

  before(async () => {
    pg = await startPostgres();
    await pg.sql('postgres', 'CREATE DATABASE team');
    // The password comes from a PGPASSFILE, not the URL: Engram is given no secret to keep.
    writeFileSync(passfile, `127.0.0.1:${pg.port}:team:engram_admin:${SUPERUSER_PASSWORD}\n`, { mode: 0o600 });
    const url = `postgres://engram_admin@127.0.0.1:${pg.port}/team?sslmode=disable`;
    a.env = { ...homes[0], ENGRAM_TEAM_URL: url, PGPASSFILE: passfile };
    b.env = { ...homes[1], ENGRAM_TEAM_URL: url, PGPASSFILE: passfile };
    seedOrigin(origin);
    cloneOrigin(origin, a);
    cloneOrigin(origin, b);
  });
  after(async () => {
    await a.lsp?.close();
    await b.lsp?.close();
    pg?.destroy();
  });

  it('engram team init creates the hub schema once; status names the hub without a password', async () => {
    const first = await engram(a, ['team', 'init']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /created \(schema version 1\)/);
    const again = await engram(b, ['team', 'init']);
    assert.match(again.stdout, /already at schema version 1/);
    const indexes = await pg.sql('team', "SELECT indexdef FROM pg_indexes WHERE schemaname = 'engram' AND indexname = 'memories_newest'");
    assert.deepEqual(indexes.rows.map((r) => r.indexdef), ['CREATE INDEX memories_newest ON engram.memories USING btree (seq)'], 'the search index, made once by the first init, kept by the second');
    const status = await engram(a, ['team', 'status']);
    assert.match(status.stdout, /team hub: postgres:\/\/engram_admin@127\.0\.0\.1:\d+\/team\?sslmode=disable/);
    assert.match(status.stdout, /project: file:.*origin\n/);
    assert.match(status.stdout, /hub: reachable, schema version 1/);
    assert.ok(!status.stdout.includes(SUPERUSER_PASSWORD));
    const doctor = await engram(a, ['doctor']);
    assert.equal(doctor.code, 0, doctor.stdout);
    assert.match(doctor.stdout, /^✓ team hub +postgres:\/\/engram_admin@127\.0\.0\.1:\d+\/team\?sslmode=disable; project: file:.*; hub: reachable, schema version 1/m);
    await start(a);
    await start(b);
    await open(a);
    await open(b);
  });

  it("A's shared constraint and decisions reach B's store, B's hover and B's hook context", async () => {
    rule = await pinDbRuleForTeam(a, RULE);
    await engram(a, ['remember', '--kind', 'decision', '--shared', 'Decision: connection retries live in the pool, not in callers.']);
    await engram(a, ['remember', '--kind', 'note', 'A private note that stays on A.']);
    const shown = await eventually("the rule on B's hover", async () => {
      const result = await hover(b, 7);
      return result && result.contents.value.includes('All SQL goes through query') ? result.contents.value : undefined;
    }, { timeoutMs: 15_000, context: () => b.lsp.stderr() });
    assert.match(shown, /hard-pinned constraint · team\*\*/);
    assert.match(shown, /from the team/);
    const inB = await eventually("A's decision in B's store", async () => {
      const all = await exported(b);
      return all.some((m) => m.title.startsWith('Decision: connection retries')) ? all : undefined;
    });
    assert.ok(!inB.some((m) => m.title.includes('private note')), 'a memory A did not share stays on A');
    const hook = await engram(b, ['hook', 'user-prompt-submit'], JSON.stringify({ session_id: 'b-1', cwd: b.root, hook_event_name: 'UserPromptSubmit', prompt: 'Change how src/db.ts builds its SQL.' }));
    assert.equal(hook.code, 0, hook.stderr);
    const context = (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    assert.match(context, /constraint, hard pin, from the project's team hub \(a teammate's memory\)\] «All SQL goes through query\(\)/);
  });

  it('an edit by A reaches B in place; a forget by A leaves B as a tombstone', async () => {
    const before = (await exported(b)).find((m) => m.title === RULE)!;
    await a.lsp.connection.sendRequest('engram/memoryAction', { projectRoot: a.root, id: rule.id, action: { type: 'edit', title: EDITED, body: EDITED } });
    await eventually("the edit on B's hover", async () => ((await hover(b, 7))?.contents.value.includes('never concatenate input') ? true : undefined), { timeoutMs: 15_000, context: () => b.lsp.stderr() });
    assert.equal((await exported(b)).find((m) => m.title === EDITED)!.id, before.id, 'the same local memory: usage and injections stay');
    const forgot = await engram(a, ['forget', rule.id]);
    assert.equal(forgot.code, 0, forgot.stderr);
    await eventually("the rule gone from B's hover", async () => ((await hover(b, 7)) === null ? true : undefined), { timeoutMs: 15_000, context: () => b.lsp.stderr() });
    assert.equal((await exported(b)).find((m) => m.id === before.id)!.status, 'forgotten');
  });

  it('engram recall --team and MCP recall scope "team" search the hub', async () => {
    const words = await engram(b, ['recall', '--team', '--query', 'retries in the pool', '--explain']);
    assert.equal(words.code, 0, words.stderr);
    assert.match(words.stdout.split('\n')[0]!, /\[decision\] Decision: connection retries live in the pool/);
    assert.match(words.stdout, /by engram_admin/);
    const none = await engram(b, ['recall', '--team', '--query', 'concatenate input']);
    assert.match(none.stdout, /No team memories match/, 'a forgotten memory is a tombstone: its words are gone from the hub');
    const mcp = await startMcp({ env: b.env, project: b.root });
    try {
      const result = await mcp.call('recall', { query: 'connection retries', scope: 'team' });
      assert.ok(!result.isError, resultText(result));
      assert.match(resultText(result), /^1 team memory from the hub, best first:\n.*Decision: connection retries live in the pool.*from the project's team hub/s);
    } finally {
      await mcp.close();
    }
  });

  it("the timeline's search scopes: this clone, the team hub for this project, the team hub for all projects", async () => {
    // Another project on the same hub: its own origin and clone, shared with `engram team sync`.
    const otherOrigin = path.join(tempDir('engram-hub-billing-'), 'billing.git');
    seedOrigin(otherOrigin);
    const other = newClone('billing', path.join(tempDir('engram-hub-billing-clone-'), 'project'), isolatedEnv({ ENGRAM_TEAM_URL: a.env.ENGRAM_TEAM_URL, PGPASSFILE: passfile }));
    cloneOrigin(otherOrigin, other);
    const remembered = await engram(other, ['remember', '--kind', 'decision', '--shared', 'Decision: connection retries in billing back off exponentially.']);
    assert.equal(remembered.code, 0, remembered.stderr);
    const synced = await engram(other, ['team', 'sync']);
    assert.equal(synced.code, 0, synced.stdout + synced.stderr);

    assert.equal((await timelinePage(b)).teamHub, true, 'B has a hub: the timeline offers the scope picker');
    const local = await timelineSearch(b, 'local');
    const mine = local.results.find((r) => r.memory.title.startsWith('Decision: connection retries live in the pool'));
    assert.ok(mine, JSON.stringify(local.results.map((r) => r.memory.title)));
    assert.equal(mine.memory.hub, undefined);
    assert.ok(!local.results.some((r) => r.memory.title.includes('billing')), "this clone's store holds no other project's memory");

    const team = await timelineSearch(b, 'team');
    assert.equal(team.teamHub, true);
    assert.deepEqual(team.results.map((r) => r.memory.title), ['Decision: connection retries live in the pool, not in callers.'], "the hub in this project: A's decision, not billing's");
    const [linked] = team.results;
    assert.equal(linked!.memory.id, mine.memory.id, "the hub key is linked to B's memory: B's own, to act on as usual");
    assert.equal(linked!.memory.hub, undefined);
    assert.match(linked!.explanation.map((p) => p.reason).join('\n'), /team hub: full-text rank[^\n]*\nteam hub: name similarity/);
    assert.ok(Math.abs(linked!.explanation.reduce((sum, p) => sum + p.points, 0) - linked!.score) < 0.001, 'the parts sum to the score');

    const all = await timelineSearch(b, 'team-all');
    assert.ok(all.results.some((r) => r.memory.id === mine.memory.id), "all projects include this one's, linked as before");
    const billing = all.results.find((r) => r.memory.title === 'Decision: connection retries in billing back off exponentially.');
    assert.ok(billing, JSON.stringify(all.results.map((r) => r.memory.title)));
    assert.match(billing.memory.hub?.project ?? '', /^file:.*engram-hub-billing-.*billing$/, 'only on the hub: marked with its project');
    assert.equal(billing.memory.hub?.author, 'engram_admin');
    assert.match(billing.memory.hub?.context ?? '', /^- \[decision[^\]]*\] «Decision: connection retries in billing back off exponentially\.»/, 'Copy as context: the line an agent would be given');
    assert.equal(billing.memory.kind, 'decision');
    const acted = (await b.lsp.connection.sendRequest('engram/memoryAction', { projectRoot: b.root, id: billing.memory.id, action: { type: 'pin', pin: 'soft' } })) as { memory: unknown };
    assert.equal(acted.memory, null, "a memory only on the hub is not in B's store: nothing to act on");

    // A memory server with no hub says so, and refuses a team scope in one line.
    const d = newClone('d', path.join(tempDir('engram-hub-d-'), 'project'), isolatedEnv());
    cloneOrigin(origin, d);
    await start(d);
    try {
      assert.equal((await timelinePage(d)).teamHub, false);
      assert.equal((await timelineSearch(d, 'local')).teamHub, false);
      await assert.rejects(timelineSearch(d, 'team'), (error: Error) => /^no team hub is configured: set engram\.team\.url \(or ENGRAM_TEAM_URL\)/.test(error.message));
      await assert.rejects(timelineSearch(d, 'everywhere' as TimelineSearchScope), (error: Error) => /^scope: /.test(error.message), 'an unknown scope is InvalidParams naming the field');
    } finally {
      await d.lsp.close();
    }
  });

  it('the hub down: the status bar says "team: offline", local memory works, and the change arrives once it is back', async () => {
    pg.stop('immediate');
    await a.lsp.waitFor('engram/status', (p) => (p as ServerStatusParams).team === 'offline', 15_000);
    await assert.rejects(timelineSearch(b, 'team'), (error: Error) => {
      assert.match(error.message, /^team hub postgres:\/\/engram_admin@127\.0\.0\.1:\d+\/team\?sslmode=disable: \S/, "the timeline's error report gets one line naming the hub");
      assert.ok(!error.message.includes('\n'), error.message);
      return true;
    });
    assert.ok((await timelineSearch(b, 'local')).results.length > 0, "this clone's search does not need the hub");
    const remembered = await engram(a, ['remember', '--kind', 'decision', '--shared', 'Decision made while the hub was down.']);
    assert.equal(remembered.code, 0, remembered.stderr);
    const status = await engram(a, ['team', 'status']);
    assert.equal(status.code, 1);
    assert.match(status.stdout, /hub: offline/);
    assert.match(status.stdout, /pending: [1-9]\d* local changes/);
    const doctor = await engram(a, ['doctor']);
    assert.equal(doctor.code, 0, 'local memory works: a hub that is down is a warning');
    assert.match(doctor.stdout, /^! team hub +postgres:.*hub: offline \(.*pending: [1-9]\d* local changes/m);
    pg.start();
    await a.lsp.waitFor('engram/status', (p) => (p as ServerStatusParams).team === 'online', 30_000);
    await eventually("the offline decision in B's store", async () => ((await exported(b)).some((m) => m.title === 'Decision made while the hub was down.') ? true : undefined), { timeoutMs: 30_000, context: () => b.lsp.stderr() });
  });

  it('a password typed into engram.team.url: the memory server syncs with it, and neither config.json nor its log holds it', async () => {
    // No ENGRAM_TEAM_URL and no password file: the setting is all this developer gave.
    const c = newClone('c', path.join(tempDir('engram-hub-c-'), 'project'), isolatedEnv());
    cloneOrigin(origin, c);
    const withPassword = `postgres://engram_admin:${encodeURIComponent(SUPERUSER_PASSWORD)}@127.0.0.1:${pg.port}/team?sslmode=disable`;
    await start(c, { team: { url: withPassword, syncAll: false } });
    try {
      await eventually("A's decision in C's store", async () => ((await exported(c)).some((m) => m.title.startsWith('Decision: connection retries')) ? true : undefined), { timeoutMs: 20_000, context: () => c.lsp.stderr() });
      const config = readFileSync(path.join(c.env.ENGRAM_HOME!, 'config.json'), 'utf8');
      assert.ok(!config.includes(SUPERUSER_PASSWORD), config);
      assert.equal((JSON.parse(config) as { team: { url: string } }).team.url, `postgres://engram_admin@127.0.0.1:${pg.port}/team?sslmode=disable`);
      const log = (c.lsp.received.get('window/logMessage') ?? []).map((p) => (p as { message: string }).message).join('\n') + c.lsp.stderr();
      assert.match(log, /the password in engram\.team\.url is used by this memory server only/);
      assert.ok(!log.includes(SUPERUSER_PASSWORD));
    } finally {
      await c.lsp.close();
    }
  });
});
