import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { ENGRAM_JS } from '../test/support/engramProcess';
import { startLsp, type LspSession } from '../test/support/lspClient';
import { percentile } from './fixtures';

const REPOS = path.resolve(import.meta.dirname, '..', '..', 'shared', 'data', 'repos');
/** The file and line (1-based, inside `res.send`) the editor sits on while the server imports. */
const EDITOR_FILE = 'lib/response.js';
const EDITOR_LINE = 130;
/** Pause between two editor requests: a person hovering and an agent asking, not a flood. */
const REQUEST_GAP_MS = 20;
/** Requests of each kind after the import, to compare with those during it. */
const AFTER_IMPORT_ROUNDS = 150;

function report(name: string, samples: readonly number[], target: string): void {
  if (!samples.length) return console.log(`${name.padEnd(58)} (no samples)`);
  const p50 = percentile(samples, 50).toFixed(2);
  const p99 = percentile(samples, 99).toFixed(2);
  console.log(`${name.padEnd(58)} p50 ${p50.padStart(7)} ms   p99 ${p99.padStart(7)} ms   (${samples.length} requests; target ${target})`);
}

/** A clone of one of the shared bundles in a temporary folder (the bundles are read-only inputs). */
export function cloneBundle(name: string, scratch: string): string {
  const target = path.join(scratch, name);
  execFileSync('git', ['clone', '--quiet', path.join(REPOS, `${name}.bundle`), target], { stdio: 'ignore' });
  return target;
}

interface IngestRun {
  readonly seconds: number;
  readonly report: { commits: number; imported: number; memories: number; summaries: number; skipped: Record<string, number> };
}

function ingest(root: string, env: NodeJS.ProcessEnv): Promise<IngestRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [ENGRAM_JS, 'ingest', '--git', '--json'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve({ seconds: (performance.now() - started) / 1000, report: JSON.parse(out) }) : reject(new Error(`engram ingest --git: ${err}`)))),
  );
}

/** `engram ingest --git` as a user runs it, twice: the second run must add nothing. */
async function benchCli(name: string, root: string, scratch: string): Promise<void> {
  const env = { ...process.env, ENGRAM_HOME: path.join(scratch, `home-cli-${name}`) };
  const first = await ingest(root, env);
  const again = await ingest(root, env);
  const { commits, memories, summaries, skipped } = first.report;
  console.log(
    `${`engram ingest --git, ${name}`.padEnd(58)} ${first.seconds.toFixed(1).padStart(6)} s   ${(commits / first.seconds).toFixed(0)} commits/s   ${commits} commits → ${memories} memories (${summaries} bulk summaries)   (target ≤ 60 s)`,
  );
  console.log(`  files without a memory: ${Object.entries(skipped).map(([k, v]) => `${v} ${k}`).join(', ') || 'none'}; run again: ${again.report.memories} memories added in ${again.seconds.toFixed(2)} s`);
}

/**
 * The memory server imports the history (the offer accepted) while the editor hovers inside
 * `res.send` and asks for recall at the same place, back to back with a short pause: their
 * latencies during the import, and the import's own time from its first progress to its end.
 */
async function benchServer(root: string, scratch: string): Promise<void> {
  const env = { ...process.env, ENGRAM_HOME: path.join(scratch, 'home-server') };
  // The offer is accepted once the editor has warmed up (grammar loaded, file parsed), as a person answers it.
  let accept!: () => void;
  const accepted = new Promise<void>((resolve) => (accept = resolve));
  const lsp: LspSession = startLsp(env, { answer: (method) => (method === 'engram/offerHistory' ? accepted.then(() => ({ answer: 'import' })) : null) });
  try {
    const uri = pathToFileURL(path.join(root, EDITOR_FILE)).href;
    await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'express' }], capabilities: {} });
    await lsp.connection.sendNotification('initialized', {});
    await lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'javascript', version: 1, text: readFileSync(path.join(root, EDITOR_FILE), 'utf8') } });
    const position = { line: EDITOR_LINE - 1, character: 4 };
    const hovers: number[] = [];
    const recalls: number[] = [];
    let shown = 0;
    const askBoth = async () => {
      let t = performance.now();
      const hover = (await lsp.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position })) as { contents: { value: string } } | null;
      hovers.push(performance.now() - t);
      if (hover) shown++;
      await new Promise((r) => setTimeout(r, REQUEST_GAP_MS));
      t = performance.now();
      await lsp.connection.sendRequest('engram/recall', { uri, position, limit: 10 });
      recalls.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, REQUEST_GAP_MS));
    };
    await lsp.waitFor('engram/offerHistory', () => true, 60_000);
    for (let i = 0; i < 5; i++) await askBoth();
    hovers.length = recalls.length = shown = 0;
    accept();
    const begin = (await lsp.waitFor('engram/historyProgress', (p) => (p as { state: string }).state === 'begin', 60_000)) as { commits: number };
    const started = performance.now();
    let ended: { done: number; memories: number; error: string | null } | undefined;
    const end = lsp.waitFor('engram/historyProgress', (p) => (p as { state: string }).state === 'end', 600_000).then((p) => (ended = p as typeof ended));
    while (!ended) await askBoth();
    await end;
    const seconds = (performance.now() - started) / 1000;
    if (ended.error) throw new Error(`the server's import failed: ${ended.error}`);
    console.log(
      `${'memory server import (own thread), express'.padEnd(58)} ${seconds.toFixed(1).padStart(6)} s   ${(begin.commits / seconds).toFixed(0)} commits/s   ${ended.done} commits → ${ended.memories} memories   (target ≤ 60 s)`,
    );
    report('  hover in res.send during the import', hovers, 'p99 ≤ 50 ms');
    report('  engram/recall at the same place during the import', recalls, 'p99 ≤ 50 ms');
    console.log(`  ${shown} of ${hovers.length} hovers showed memories (the history arrives as the import goes)`);
    const during = hovers.length;
    for (let i = 0; i < AFTER_IMPORT_ROUNDS; i++) await askBoth();
    report('  hover, after the import (for comparison)', hovers.slice(during), '—');
    report('  engram/recall, after the import (for comparison)', recalls.slice(during), '—');
  } finally {
    await lsp.close();
  }
}

/** `npm run bench -- history`: issue 22's history import on real repositories (../shared/data/repos). */
export async function benchHistory(): Promise<void> {
  console.log('\n== History import (issue 22): express, 6,158 commits; requests, 6,489 (Python) ==');
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-history-'));
  try {
    const express = cloneBundle('express', scratch);
    await benchCli('express', express, scratch);
    await benchServer(express, scratch);
    await benchCli('requests', cloneBundle('requests', scratch), scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
