import assert from 'node:assert/strict';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { openProject } from '../../server/src/project';
import type { RecallResult } from '../../contracts/protocol';
import { runEngram } from '../support/engramProcess';
import { eventually } from '../support/eventually';
import { startLsp, type LspSession } from '../support/lspClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const TOPICS = ['pool', 'retry', 'cache', 'ledger', 'invoice', 'parser', 'router', 'session'];
const MEMORIES = 600;

/** The memory server builds its in-memory text index in the background and recalls from it. */
describe('the memory server\'s in-memory text index', () => {
  const env = isolatedEnv();
  const root = path.join(tempDir('engram-text-index-'), 'project');
  let lsp: LspSession;
  let indexed: string;

  const recallOverLsp = async (query: string) => ((await lsp.connection.sendRequest('engram/recall', { query, limit: 5 })) as RecallResult).results.map((r) => r.memory.id);
  const recallAlone = async (query: string) => (JSON.parse((await runEngram(['recall', '--query', query, '--limit', '5', '--json'], { env, cwd: root })).stdout) as { results: { id: string }[] }).results.map((r) => r.id);

  before(async () => {
    mkdirSync(path.join(root, '.git'), { recursive: true });
    const project = openProject(root, env);
    try {
      for (let i = 0; i < MEMORIES; i++) {
        const topic = TOPICS[i % TOPICS.length]!;
        const other = TOPICS[(i * 7 + 3) % TOPICS.length]!;
        project.store.add({ kind: 'decision', title: `${topic} decision ${i}`, body: `The ${topic} keeps ${other} state; see note${i}.`, source: 'user', files: [`src/${topic}.ts`] });
      }
    } finally {
      project.close();
    }
    lsp = startLsp(env);
    await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'project' }], capabilities: {} });
    await lsp.connection.sendNotification('initialized', {});
    // Built a few seconds after the project opens (lsp/textIndexUpkeep.ts), in slices.
    indexed = ((await lsp.waitFor('window/logMessage', (p) => /^Indexed the text of/.test((p as { message: string }).message), 60_000)) as { message: string }).message;
  });
  after(async () => lsp?.close());

  it('indexes every memory once the server has opened the project, and says so', () => {
    assert.match(indexed, new RegExp(`^Indexed the text of ${MEMORIES} memories in memory in \\d+ ms \\(${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)\\.$`));
  });

  it('recalls from it what a short command finds with FTS5', async () => {
    for (const query of ['ledger state', 'note17', 'pool retry cache', 'invoice keeps parser']) {
      const served = await recallOverLsp(query);
      assert.ok(served.length, query);
      assert.deepEqual(new Set(served), new Set(await recallAlone(query)), query);
    }
  });

  it('finds a memory another process writes after it was built', async () => {
    const added = await runEngram(['remember', '--kind', 'gotcha', '--json', 'Zeppelin hangars leak helium overnight'], { env, cwd: root });
    assert.equal(added.code, 0, added.stderr);
    const id = (JSON.parse(added.stdout) as { id: string }).id;
    assert.deepEqual(await recallOverLsp('zeppelin helium'), [id]);
  });
});

/**
 * The index is built in a process that writes it to a folder of the temporary directory
 * (textIndexProcess.ts): a server stopped or killed during the build leaves neither behind.
 */
describe('the text index process when the memory server goes away during its build', () => {
  const COUNT = 5000;

  async function serverBuilding(): Promise<{ lsp: LspSession; tmp: string; building: string }> {
    const tmp = tempDir('engram-tmp-');
    const env = isolatedEnv({ TMPDIR: tmp, TMP: tmp, TEMP: tmp });
    const root = path.join(tempDir('engram-text-index-gone-'), 'project');
    mkdirSync(path.join(root, '.git'), { recursive: true });
    const project = openProject(root, env);
    try {
      for (let i = 0; i < COUNT; i++) project.store.add({ kind: 'decision', title: `${TOPICS[i % TOPICS.length]} decision ${i}`, body: `note${i}`, source: 'user' });
    } finally {
      project.close();
    }
    const lsp = startLsp(env);
    await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'project' }], capabilities: {} });
    await lsp.connection.sendNotification('initialized', {});
    const building = await eventually('the build to start in a folder of the temporary directory', async () => readdirSync(tmp).find((name) => name.startsWith('engram-text-index-')), { timeoutMs: 60_000, intervalMs: 10 });
    return { lsp, tmp, building };
  }

  const leftOver = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('engram-text-index-'));

  it('removes its folder when the server stops, and when the server is killed outright', async () => {
    const [stopped, killed] = await Promise.all([serverBuilding(), serverBuilding()]);
    await stopped.lsp.close();
    killed.lsp.process.kill('SIGKILL');
    // The stopped server removes the folder as it exits; the killed one leaves it to the process, which finds no server to take the index.
    assert.deepEqual(leftOver(stopped.tmp), [], `${stopped.building} was left behind by a server that stopped`);
    await eventually('the orphaned build to remove its folder', async () => (leftOver(killed.tmp).length ? undefined : true), { timeoutMs: 60_000 });
    killed.lsp.connection.dispose();
  });
});
