import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openProject } from '../server/src/project';
import { recall, type RecallRequest } from '../server/src/recall/recall';
import { MEMORY_SERVER_NODE_FLAGS } from '../server/src/runtime/memoryServerFlags';
import { RESIDENT_ROWS_MAX } from '../server/src/store/rowCaches';
import { TEXT_INDEX_ROWS_MAX } from '../server/src/store/textIndex/residentTextIndex';
import { startLsp, type LspSession } from '../test/support/lspClient';
import { percentile } from './fixtures';
import { fixtureSessionId, generateRequests, hottestFile, type GeneratedRequest, type RecallMix } from './memoryFixtures';
import type { GeneratedFile } from './projectFixtures';
import { cachedStore, installStore, SCALE_SEED, type CachedStore } from './scaleFixtures';

/**
 * Issue 25: the memory server at 100,000 and 1,000,000 memories — its resident memory (VmRSS and
 * VmHWM of the real `engram lsp` process) after start and after 1,000 mixed requests, the first
 * hover and recall after it starts, recall in-process, hover and CodeLens round trips, import
 * and the database's bytes per memory. `npm run bench -- scale` (ENGRAM_BENCH_SCALE=100000 for
 * one size). The stores are built once and cached (bench/scaleFixtures.ts).
 */

const SIZES = (process.env.ENGRAM_BENCH_SCALE ?? '100000,1000000').split(',').map(Number);
const MIXED_REQUESTS = 1000;
const IN_PROCESS_PER_MIX = 500;
const IN_PROCESS_BUDGET_MS = 20_000;
const KEEP_EVERY_MEMORY = { capacity: { high: 10_000_000, consolidateAfterDays: 100_000 } };
const MIXES: RecallMix[] = ['query only', 'file + line + symbol', 'file + query'];
/** How long the server is left alone after its start before "RSS after start", at least (its warm-up runs meanwhile). */
const SETTLE_MS = 15_000;
/** Starts after the first whose first hover is timed too: their code cache is warm, as a user's is. */
const MORE_STARTS = 3;
/** How long the server is left alone after the mixed requests before RSS is read again. */
const IDLE_MS = 10_000;
/** CodeLenses timed right after another process writes a memory of their file. */
const LENS_AFTER_WRITES = 5;
/**
 * Node's flags for the server process: the extension's (memoryServerFlags.ts) unless
 * ENGRAM_BENCH_SERVER_FLAGS gives others, to compare heap settings ('' for Node's defaults).
 */
const SERVER_FLAGS = process.env.ENGRAM_BENCH_SERVER_FLAGS === undefined ? MEMORY_SERVER_NODE_FLAGS : process.env.ENGRAM_BENCH_SERVER_FLAGS.split(' ').filter(Boolean);

function line(name: string, value: string): void {
  console.log(`${name.padEnd(58)} ${value}`);
}

function p(samples: readonly number[], q: number): string {
  return percentile(samples, q).toFixed(2).padStart(7);
}

/** VmRSS, its file-backed part (RssFile: Node's binary, the bundle, shared libraries) and VmHWM of a process, in MB. */
function memoryOf(pid: number): { rss: number; file: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, file: kb('RssFile') / 1024, hwm: kb('VmHWM') / 1024 };
}

function mb({ rss, file, hwm }: { rss: number; file: number; hwm: number }): string {
  return `RSS ${rss.toFixed(0).padStart(5)} MB (file pages ${file.toFixed(0)})   peak (VmHWM) ${hwm.toFixed(0).padStart(5)} MB`;
}

/** The same of a bare `node` of the server's runtime, idle: what any Node process starts with. */
async function bareNodeMemory(): Promise<string> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 2000)'], { stdio: 'ignore' });
  await sleep(500);
  try {
    return mb(memoryOf(child.pid!));
  } finally {
    child.kill();
  }
}

function writeProject(root: string, files: readonly GeneratedFile[]): void {
  mkdirSync(path.join(root, '.git'), { recursive: true });
  for (const file of files) {
    mkdirSync(path.dirname(path.join(root, file.path)), { recursive: true });
    writeFileSync(path.join(root, file.path), file.text);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function started(env: NodeJS.ProcessEnv, root: string, shown: string): Promise<LspSession> {
  // As the extension starts it with a file shown: `--warm` names it (client/src/server/memoryServer.ts).
  const lsp = startLsp(env, { nodeFlags: SERVER_FLAGS, lspArgs: ['--warm', path.join(root, shown)] });
  await lsp.connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'scale' }],
    capabilities: {},
    initializationOptions: KEEP_EVERY_MEMORY,
  });
  await lsp.connection.sendNotification('initialized', {});
  return lsp;
}

/** The LSP form of a generated recall request. */
function recallParams(root: string, r: GeneratedRequest): Record<string, unknown> {
  const uri = r.file ? pathToFileURL(path.join(root, r.file)).href : undefined;
  if (r.mix === 'query only') return { query: r.query, limit: 10 };
  if (r.mix === 'file + query') return { uri, query: r.query, limit: 10 };
  return { uri, position: { line: r.line, character: 4 }, limit: 10 };
}

/**
 * The real server: RSS after it starts, the first hover and first recall, 1,000 mixed requests
 * (recall of the three mixes, hovers and CodeLenses on the hottest file, in turn), RSS and peak
 * after them; hover and CodeLens round trips from the same run.
 */
async function benchServer(store: CachedStore, root: string, env: NodeJS.ProcessEnv): Promise<void> {
  const fixture = store.fixture;
  const file = hottestFile(fixture, 'typescript');
  const uri = pathToFileURL(path.join(root, file.path)).href;
  const methods = [...file.lines.entries()].filter(([name]) => name.includes('.'));
  const start = performance.now();
  const lsp = await started(env, root, file.path);
  try {
    const pid = lsp.process.pid!;
    line(`server started (initialize answered), flags: ${SERVER_FLAGS.join(' ') || 'none'}`, `${(performance.now() - start).toFixed(0).padStart(7)} ms   ${mb(memoryOf(pid))}`);
    line('a bare `node -e` of the same runtime, for comparison', `           ${await bareNodeMemory()}`);
    await lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: file.text } });
    const hover = (i: number) => {
      const [, span] = methods[i % methods.length]!;
      return lsp.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: span.start + 1 + (i % Math.max(1, span.end - span.start)), character: 4 } });
    };
    const lens = () => lsp.connection.sendRequest('textDocument/codeLens', { textDocument: { uri } });
    const firstQuery = generateRequests(fixture, 1, 'file + query', SCALE_SEED + 99)[0]!;
    let t = performance.now();
    await hover(0);
    const firstHover = performance.now() - t;
    t = performance.now();
    const answer = (await lsp.connection.sendRequest('engram/recall', recallParams(root, firstQuery))) as { results: unknown[] };
    const firstRecall = performance.now() - t;
    line('first hover after start', `${firstHover.toFixed(0).padStart(7)} ms   (target ≤ 100 ms at 100k, ≤ 300 ms at 1M)`);
    line(`first recall after start (file + query, ${answer.results.length} results)`, `${firstRecall.toFixed(0).padStart(7)} ms   (target ≤ 100 ms at 100k, ≤ 300 ms at 1M)`);
    // Settled: the scoring rows loaded and the text index built (or the store too large for them).
    const settled = performance.now();
    await sleep(SETTLE_MS);
    if (store.memories <= Math.min(RESIDENT_ROWS_MAX, TEXT_INDEX_ROWS_MAX)) {
      for (const log of [/^Loaded recall's scoring rows/, /^Indexed the text of/]) await lsp.waitFor('window/logMessage', (p) => log.test((p as { message: string }).message), 300_000);
    }
    line(`after start, settled (${((performance.now() - settled) / 1000).toFixed(0)} s)`, mb(memoryOf(pid)));
    const other = fixture.files.find((f) => f.language === 'typescript' && f !== file)!;
    const otherUri = pathToFileURL(path.join(root, other.path)).href;
    const [, otherSpan] = [...other.lines.entries()].find(([name]) => name.includes('.'))!;
    await lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: otherUri, languageId: 'typescript', version: 1, text: other.text } });
    await sleep(500);
    t = performance.now();
    await lsp.connection.sendRequest('textDocument/hover', { textDocument: { uri: otherUri }, position: { line: otherSpan.start + 1, character: 4 } });
    line('first hover on a file opened after that (0.5 s later)', `${(performance.now() - t).toFixed(0).padStart(7)} ms`);

    const requests = MIXES.map((mix, i) => generateRequests(fixture, MIXED_REQUESTS, mix, SCALE_SEED + 20 + i));
    const samples = { recall: MIXES.map((): number[] => []), hover: [] as number[], lens: [] as number[] };
    for (let n = 0; n < MIXED_REQUESTS; n++) {
      const kind = n % 5;
      t = performance.now();
      if (kind < 3) await lsp.connection.sendRequest('engram/recall', recallParams(root, requests[kind]![n]!));
      else if (kind === 3) await hover(n);
      else await lens();
      const ms = performance.now() - t;
      if (kind < 3) samples.recall[kind]!.push(ms);
      else (kind === 3 ? samples.hover : samples.lens).push(ms);
    }
    line(`after ${MIXED_REQUESTS} mixed requests`, mb(memoryOf(pid)));
    // V8 gives back what a burst of requests left once the process is idle (its memory reducer).
    await sleep(IDLE_MS);
    line(`  then idle ${IDLE_MS / 1000} s`, mb(memoryOf(pid)));
    MIXES.forEach((mix, i) => line(`  engram/recall round trip, ${mix}`, `p50 ${p(samples.recall[i]!, 50)} ms   p99 ${p(samples.recall[i]!, 99)} ms`));
    line('hover round trip (in the mix)', `p50 ${p(samples.hover, 50)} ms   p99 ${p(samples.hover, 99)} ms   (target p50 ≤ 5 ms)`);
    line('CodeLens round trip (in the mix)', `p50 ${p(samples.lens, 50)} ms   p99 ${p(samples.lens, 99)} ms   (target p50 ≤ 5 ms)`);
    await benchViews(lsp, root, file, methods[0]!);
    line('CodeLens after a memory of the file is written', `${(await lensesAfterWrites(root, env, file.path, methods[0]![0], lens)).map((ms) => ms.toFixed(0)).join(', ').padStart(7)} ms`);
  } finally {
    await lsp.close();
  }
}

/**
 * The memory panel (it follows the cursor) and the timeline's pages and session list, over LSP as
 * the extension asks them, at a method of the hottest file: each the median of a few.
 */
async function benchViews(lsp: LspSession, root: string, file: GeneratedFile, [symbol, span]: [string, { start: number }]): Promise<void> {
  const uri = pathToFileURL(path.join(root, file.path)).href;
  const timed = async (method: string, params: unknown, times: number): Promise<{ ms: number; kb: number }> => {
    const samples: number[] = [];
    let answer: unknown;
    for (let n = 0; n < times; n++) {
      const t = performance.now();
      answer = await lsp.connection.sendRequest(method, params);
      samples.push(performance.now() - t);
    }
    return { ms: percentile(samples, 50), kb: JSON.stringify(answer).length / 1024 };
  };
  const show = (name: string, { ms, kb }: { ms: number; kb: number }) => line(name, `p50 ${ms.toFixed(2).padStart(7)} ms   ${kb.toFixed(0).padStart(5)} KB`);
  show('memory panel at a method of the hottest file', await timed('engram/memoryPanel', { uri, position: { line: span.start + 1, character: 4 } }, 20));
  const page = (filter: object) => timed('engram/timelinePage', { projectRoot: root, filter, cursor: null, limit: 100 }, 10);
  show('timeline page, no filter', await page({}));
  show('timeline page of an agent session', await page({ sessionId: fixtureSessionId(3) }));
  show('timeline page of a session with no memories', await page({ sessionId: 'no-such-session' }));
  show(`timeline page of a symbol (${symbol})`, await page({ symbol }));
  show('timeline page of the hottest file', await page({ path: file.path }));
  show('timeline agent sessions (the filters\' list)', await timed('engram/agentSessions', { projectRoot: root }, 5));
}

/**
 * CodeLens right after another process (a hook, the CLI) writes a memory of the file, which
 * makes the server tally the file again: at 1,000,000 the hottest file has ~26,000 memories.
 */
async function lensesAfterWrites(root: string, env: NodeJS.ProcessEnv, file: string, symbol: string, lens: () => Promise<unknown>): Promise<number[]> {
  const writer = openProject(root, env);
  try {
    const times: number[] = [];
    for (let n = 0; n < LENS_AFTER_WRITES; n++) {
      writer.store.add({ kind: 'note', title: `Bench write ${n}`, source: 'user', files: [file], symbols: [symbol] });
      const t = performance.now();
      await lens();
      times.push(performance.now() - t);
      await sleep(200);
    }
    return times;
  } finally {
    writer.close();
  }
}

/**
 * The first hover of more starts of the server: the bench's first start compiles the code cache
 * (a fresh ENGRAM_HOME), these find it, as a user's server does at every start after the first.
 */
async function benchMoreStarts(store: CachedStore, root: string, env: NodeJS.ProcessEnv): Promise<void> {
  const file = hottestFile(store.fixture, 'typescript');
  const uri = pathToFileURL(path.join(root, file.path)).href;
  const [, span] = [...file.lines.entries()].find(([name]) => name.includes('.'))!;
  const hovers: number[] = [];
  for (let n = 0; n < MORE_STARTS; n++) {
    const lsp = await started(env, root, file.path);
    try {
      await lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: file.text } });
      const t = performance.now();
      await lsp.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: span.start + 1, character: 4 } });
      hovers.push(performance.now() - t);
    } finally {
      await lsp.close();
    }
  }
  line(`first hover after start, ${MORE_STARTS} more starts (code cache warm)`, `${hovers.map((ms) => ms.toFixed(0)).join(', ').padStart(7)} ms`);
}

/** recall() in the bench's process, as the memory server calls it once its warm-up is done. */
function benchInProcess(store: CachedStore, root: string, env: NodeJS.ProcessEnv): void {
  const project = openProject(root, env, { resident: true });
  try {
    const options = { weights: project.recallWeights, usage: project.usage };
    const before = process.memoryUsage();
    const t = performance.now();
    project.store.reads.keepEveryCandidate();
    void project.store.reads.buildTextIndex();
    // A store too large for the in-memory index: the sets of its widespread words (store/termMatchSets.ts);
    // ENGRAM_BENCH_TERM_SETS=0 measures recall without them.
    if (project.store.reads.textIndexState === 'too large' && process.env.ENGRAM_BENCH_TERM_SETS !== '0') {
      project.store.prefillTermSets();
      while (project.store.reads.buildPendingTermSet());
    }
    const after = process.memoryUsage();
    const grew = (after.heapUsed + after.arrayBuffers + after.external - before.heapUsed - before.arrayBuffers - before.external) / 1e6;
    line('warm-up at once (what the server does after it starts)', `${(performance.now() - t).toFixed(0).padStart(7)} ms   JS heap and buffers +${grew.toFixed(0)} MB`);
    const requests = MIXES.map((mix, i) => generateRequests(store.fixture, IN_PROCESS_PER_MIX + 50, mix, SCALE_SEED + 10 + i).map(toRequest));
    const samples = MIXES.map((): number[] => []);
    const begun = performance.now();
    for (let n = 0; n < IN_PROCESS_PER_MIX + 50; n++) {
      if (n >= 150 && performance.now() - begun > IN_PROCESS_BUDGET_MS) break;
      requests.forEach((forMix, i) => {
        const s = performance.now();
        recall(project.store, forMix[n]!, options);
        if (n >= 50) samples[i]!.push(performance.now() - s);
      });
    }
    const termSets = project.store.reads.termSetSize;
    if (termSets?.sets) line('full-text term sets built at start', `${termSets.sets} words, ${(termSets.bytes / 1e6).toFixed(1)} MB`);
    MIXES.forEach((mix, i) => line(`recall() in-process, ${mix}`, `p50 ${p(samples[i]!, 50)} ms   p99 ${p(samples[i]!, 99)} ms`));
    line(`recall() in-process, all three (${samples[0]!.length} each)`, `p50 ${p(samples.flat(), 50)} ms   p99 ${p(samples.flat(), 99)} ms   (target ≤ 1 / 5 ms at 100k, ≤ 2 / 10 ms at 1M)`);
    // What the status bar reads after every write (the table migration 017's triggers keep).
    const counted: number[] = [];
    for (let n = 0; n < 20; n++) {
      const s = performance.now();
      project.store.counts();
      counted.push(performance.now() - s);
    }
    line('memory counts for the status bar', `p50 ${p(counted, 50)} ms   max ${Math.max(...counted).toFixed(2)} ms`);
  } finally {
    project.close();
  }
}

function toRequest(r: GeneratedRequest): RecallRequest {
  return { query: r.query, file: r.file, line: r.line, symbol: r.symbol, limit: 10 };
}

export async function benchScale(): Promise<void> {
  for (const size of SIZES) {
    const store = await cachedStore(size, (l) => console.log(`  (${l})`));
    const work = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-scale-'));
    try {
      const root = path.join(work, 'project');
      writeProject(root, store.fixture.files);
      const env: NodeJS.ProcessEnv = { ...process.env, ENGRAM_HOME: path.join(work, 'home'), CLAUDE_CONFIG_DIR: path.join(work, 'claude') };
      delete env.NODE_EXTRA_CA_CERTS;
      const database = installStore(store, root, env);
      const bytes = statSync(database).size;
      console.log(`\nScale: ${size.toLocaleString('en')} generated memories over ${store.fixture.files.length} files (load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
      line('engram import (process, when the cached store was built)', `${store.importSeconds.toFixed(1).padStart(7)} s    (${store.builtAt}; target ≤ 10 s at 100k, ≤ 100 s at 1M)`);
      line('database on disk', `${(bytes / 1e6).toFixed(0).padStart(7)} MB   ${(bytes / size).toFixed(0)} bytes a memory`);
      await benchServer(store, root, env);
      await benchMoreStarts(store, root, env);
      benchInProcess(store, root, env);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}
