// `npm run bench -- team`: the team hub (issue 24) on a real PostgreSQL made for the run
// (test/support/postgres.ts). Targets: first sync of 100,000 memories ≤ 30 s; a change reaches
// the other client in ≤ 3 s at steady state; team search p50 ≤ 20 ms at 1,000,000 hub memories;
// 10 clients × 10,000 memories pushing while pulling end identical. ENGRAM_BENCH_TEAM_SCALE
// (default 1) scales every size down for a quick run (0.1: a tenth).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectHub, type HubClient } from '../server/src/hub/hubConnection';
import { initHub } from '../server/src/hub/hubSchema';
import { syncProject } from '../server/src/hub/syncProject';
import { searchTeam } from '../server/src/hub/teamSearch';
import { openProject, type Project } from '../server/src/project';
import { corpusWord as word, loadSearchCorpus } from '../test/support/hubSearchCorpus';
import { startPostgres } from '../test/support/postgres';

const SCALE = Number(process.env.ENGRAM_BENCH_TEAM_SCALE ?? 1);
/** ENGRAM_BENCH_TEAM_PARTS: a comma list of first, latency, fleet, search (default: all). */
const PARTS = new Set((process.env.ENGRAM_BENCH_TEAM_PARTS ?? 'first,latency,fleet,search').split(','));
const size = (n: number) => Math.max(10, Math.round(n * SCALE));
const WORDS = 'pool retry query cache index parser token session anchor schema migrate lock queue batch stream render layout commit branch merge hover budget recall redact secret timeout socket backoff cursor tombstone revision grant policy'.split(' ');

interface Client {
  readonly project: Project;
  readonly client: HubClient;
  readonly home: string;
}

async function newClient(url: string): Promise<Client> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-hub-'));
  const project = openProject(path.join(home, 'project'), { ...process.env, ENGRAM_HOME: path.join(home, 'engram') });
  return { project, client: await connectHub(url), home };
}

async function closeClient(c: Client): Promise<void> {
  await c.client.end();
  c.project.close();
  rmSync(c.home, { recursive: true, force: true });
}

function addMemories(c: Client, count: number, label: string): void {
  for (let start = 0; start < count; start += 5000) {
    c.project.transaction(() => {
      for (let n = start; n < Math.min(count, start + 5000); n++) {
        c.project.store.add({ kind: 'decision', title: `${label} ${n}: ${WORDS[n % WORDS.length]} ${WORDS[(n * 7) % WORDS.length]}`, body: `why ${n}`, source: 'user', symbols: [`Module${n % 97}.fn${n % 13}`] });
      }
    });
  }
}

function digest(c: Client): string {
  const lines: string[] = [];
  for (const memory of c.project.store.recent(10_000_000)) {
    const link = c.project.hub.linkOf(memory.id);
    if (link) lines.push(`${link.hubKey}\u0001${memory.title}`);
  }
  return createHash('sha256').update(lines.sort().join('\n')).digest('hex').slice(0, 12);
}

const sync = (c: Client, url: string, project = 'bench/project') => syncProject(c.project, c.client, url, project, true);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function benchTeamHub(): Promise<void> {
  console.log(`\n## Team hub (PostgreSQL), scale ${SCALE}`);
  const pg = await startPostgres();
  try {
    await pg.sql('postgres', 'CREATE DATABASE hub');
    const url = pg.url('hub');
    // Loading a million rows takes minutes: no statement limit for the bench's own connection.
    const admin = await connectHub(url, { timeoutMs: 3_600_000 });
    await initHub(admin);

    if (PARTS.has('first') || PARTS.has('latency')) {
      const first = size(100_000);
      const a = await newClient(url);
      const b = await newClient(url);
      addMemories(a, first, 'First');
      const t = performance.now();
      await sync(a, url);
      const pushMs = performance.now() - t;
      const pulled = performance.now();
      await sync(b, url);
      const pullMs = performance.now() - pulled;
      console.log(`first sync of ${first.toLocaleString('en')} memories: push ${seconds(pushMs)}, pull into an empty store ${seconds(pullMs)} (target ≤ 30 s each); identical: ${digest(a) === digest(b)}`);

      // Steady state: both clients tick every second as the memory server does (lsp/hubFollower.ts).
      const latencies: number[] = [];
      let running = true;
      const ticker = async (c: Client) => {
        while (running) {
          await sync(c, url);
          await new Promise((r) => setTimeout(r, 1000));
        }
      };
      const tickers = [ticker(a), ticker(b)];
      for (let i = 0; i < 10; i++) {
        const title = `Steady change ${i}`;
        const started = performance.now();
        a.project.store.add({ kind: 'decision', title, source: 'user' });
        for (;;) {
          if (b.project.store.recent(20).some((m) => m.title === title)) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 300 + Math.random() * 700));
      }
      running = false;
      await Promise.all(tickers);
      latencies.sort((x, y) => x - y);
      console.log(`a change reaches the other client (1 s ticks): p50 ${seconds(latencies[5]!)}, max ${seconds(latencies.at(-1)!)} (target ≤ 3 s)`);
      await closeClient(a);
      await closeClient(b);
    }

    if (PARTS.has('fleet')) {
      const clients = 10;
      const each = size(10_000);
      const fleet = await Promise.all(Array.from({ length: clients }, () => newClient(url)));
      const t = performance.now();
      await Promise.all(
        fleet.map(async (c, i) => {
          for (let round = 0; round < 5; round++) {
            addMemories(c, each / 5, `Client ${i} round ${round}`);
            await sync(c, url, 'bench/fleet');
          }
        }),
      );
      for (const c of fleet) await sync(c, url, 'bench/fleet');
      const fleetMs = performance.now() - t;
      const digests = new Set(fleet.map(digest));
      const counts = new Set(fleet.map((c) => c.project.store.counts().byStatus.active));
      console.log(`${clients} clients × ${each.toLocaleString('en')} memories, pushing while pulling: ${seconds(fleetMs)}; identical sets: ${digests.size === 1} (${[...counts].join(', ')} memories each, expected ${(clients * each).toLocaleString('en')})`);
      for (const c of fleet) await closeClient(c);
    }

    if (PARTS.has('search')) {
      const total = size(1_000_000);
      const t = performance.now();
      await loadSearchCorpus(admin, total);
      const loadMs = performance.now() - t;
      // Words of every frequency (word 3 is in about one memory in 15, word 40 in one in 70, word 2,000 in one in 1,000), pairs, and names.
      const queries = [word(3), word(40), word(300), word(2000), `${word(10)} ${word(120)}`, `${word(60)} ${word(900)}`, `${word(5)} ${word(7)}`, 'Module42.handle7', 'Module9', 'handle17'];
      const times: number[] = [];
      const byQuery = new Map<string, number[]>();
      for (let round = 0; round < 5; round++) {
        for (const text of queries) {
          const started = performance.now();
          await searchTeam(admin, { text, project: 'bench/search-3', limit: 10 });
          const ms = performance.now() - started;
          times.push(ms);
          byQuery.set(text, [...(byQuery.get(text) ?? []), ms]);
        }
      }
      const matches = async (text: string) => (await admin.query(`SELECT count(*)::int AS n FROM engram.memories WHERE project = 'bench/search-3' AND search @@ websearch_to_tsquery('english', $1)`, [text])).rows[0].n as number;
      for (const [text, list] of byQuery) console.log(`  "${text}": ${(await matches(text)).toLocaleString('en')} word matches in the project, median ${list.sort((x, y) => x - y)[2]!.toFixed(1)} ms`);
      const allTimes: number[] = [];
      const allByQuery = new Map<string, number[]>();
      for (let round = 0; round < 3; round++) {
        for (const text of queries) {
          const started = performance.now();
          await searchTeam(admin, { text, project: null, limit: 10 });
          const ms = performance.now() - started;
          allTimes.push(ms);
          allByQuery.set(text, [...(allByQuery.get(text) ?? []), ms]);
        }
      }
      console.log(`  all projects, median by query: ${[...allByQuery].map(([text, list]) => `"${text}" ${list.sort((x, y) => x - y)[1]!.toFixed(1)} ms`).join(', ')}`);
      times.sort((x, y) => x - y);
      allTimes.sort((x, y) => x - y);
      console.log(`team search at ${total.toLocaleString('en')} hub memories (20 projects; loaded in ${seconds(loadMs)}): one project p50 ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, p95 ${times[Math.floor(times.length * 0.95)]!.toFixed(1)} ms; all projects p50 ${allTimes[Math.floor(allTimes.length / 2)]!.toFixed(1)} ms (target p50 ≤ 20 ms)`);
    }
    await admin.end();
  } finally {
    pg.destroy();
  }
}
