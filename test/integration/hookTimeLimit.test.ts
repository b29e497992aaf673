import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { findNativeBinding } from '../../server/src/store/nativeBinding';
import { databasePathFor } from '../../server/src/paths/engramPaths';
import { writeLargeTranscript, type LargeTranscript } from '../support/claude/largeTranscript';
import { assertBuilt, ENGRAM_JS, runEngram } from '../support/engramProcess';
import { isolatedEnv, tempDir } from '../support/tempDirs';

/** Claude Code's own limit for a hook, set by the connector: it kills the hook after it. */
const CLAUDE_CODE_KILLS_AFTER_MS = 10_000;
/** The hook's limit (engram.hooks.timeoutMs, 2 s) plus starting Node, with slack for a busy CI machine. */
const WITHIN_LIMIT_MS = 4_000;
const SESSION = 'big-session';
/** Killed runs: past starting Node and opening the project, somewhere in a slice. */
const KILL_AFTER_MS = 1_000;

function project(): string {
  const root = tempDir('engram-big-project-');
  mkdirSync(path.join(root, '.git'));
  mkdirSync(path.join(root, 'src'));
  return root;
}

interface HookRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly ms: number;
}

/** `engram hook EVENT` as Claude Code runs it, killed with SIGKILL after `killAfterMs`. */
function hook(event: string, input: object, env: NodeJS.ProcessEnv, cwd: string, killAfterMs: number): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [ENGRAM_JS, 'hook', event], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, ms: performance.now() - started });
    });
    child.stdin.end(JSON.stringify(input));
  });
}

/** How far the project's database says the transcript was read (0: never). */
function savedOffset(root: string, env: NodeJS.ProcessEnv, transcript: string): number {
  const db = new Database(databasePathFor(root, env), { readonly: true, nativeBinding: findNativeBinding() });
  try {
    return (db.prepare('SELECT byte_offset FROM ingest_offsets WHERE path = ?').pluck().get(transcript) as number | undefined) ?? 0;
  } finally {
    db.close();
  }
}

/** Every memory of the project as `engram export` writes it, without its id, ordered by where it came from. */
async function memoriesOf(root: string, env: NodeJS.ProcessEnv): Promise<Record<string, unknown>[]> {
  const run = await runEngram(['export'], { env, cwd: root, timeoutMs: 60_000 });
  assert.equal(run.code, 0, run.stderr);
  return run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const { id, ...memory } = JSON.parse(line) as Record<string, unknown>;
      void id;
      return memory;
    })
    .sort((a, b) => String(a.sourceRef).localeCompare(String(b.sourceRef)));
}

/** What one uninterrupted `engram ingest` makes of the transcript, in a data folder of its own. */
async function readInOneGo(root: string, transcript: LargeTranscript): Promise<Record<string, unknown>[]> {
  const env = isolatedEnv();
  const run = await runEngram(['ingest', transcript.file], { env, cwd: root, timeoutMs: 180_000 });
  assert.equal(run.code, 0, run.stderr);
  return memoriesOf(root, env);
}

function stopInput(root: string, transcript: LargeTranscript): object {
  return { session_id: SESSION, transcript_path: transcript.file, cwd: root, hook_event_name: 'Stop', stop_hook_active: false };
}

function postToolUseInput(root: string, transcript: LargeTranscript): object {
  return {
    session_id: SESSION,
    transcript_path: transcript.file,
    cwd: root,
    hook_event_name: 'PostToolUse',
    tool_name: 'Edit',
    tool_use_id: transcript.lastEdit.toolUseId,
    tool_input: { file_path: transcript.lastEdit.toolResponse.filePath },
    tool_response: transcript.lastEdit.toolResponse,
  };
}

describe('hooks that read the transcript stay within their time limit', () => {
  before(assertBuilt);

  it('read a 38 MB transcript never read before in slices: every run within the limit, each one further, all of it exactly once', async () => {
    const root = project();
    const transcript = writeLargeTranscript(path.join(tempDir(), `${SESSION}.jsonl`), { root, sessionId: SESSION, megabytes: 38 });
    const expected = await readInOneGo(root, transcript);
    assert.ok(expected.filter((m) => m.kind === 'diff').length > 100, 'the transcript makes over a hundred diff memories');

    const env = isolatedEnv();
    const runs: { event: string; ms: number; offset: number }[] = [];
    let offset = 0;
    while (offset < transcript.bytes) {
      assert.ok(runs.length < 40, `no end after ${runs.length} runs: ${JSON.stringify(runs)}`);
      const event = runs.length % 2 === 0 ? 'stop' : 'post-tool-use';
      const run = await hook(event, event === 'stop' ? stopInput(root, transcript) : postToolUseInput(root, transcript), env, root, CLAUDE_CODE_KILLS_AFTER_MS);
      const reached = savedOffset(root, env, transcript.file);
      runs.push({ event, ms: Math.round(run.ms), offset: reached });
      assert.equal(run.signal, null, `run ${runs.length} (${event}) was killed after ${Math.round(run.ms)} ms`);
      assert.equal(run.code, 0);
      assert.equal(run.stdout, '');
      assert.ok(run.ms < WITHIN_LIMIT_MS, `run ${runs.length} (${event}) took ${Math.round(run.ms)} ms`);
      assert.ok(reached > offset, `run ${runs.length} (${event}) saved no progress: ${JSON.stringify(runs)}`);
      offset = reached;
    }
    console.log(`38 MB transcript read by ${runs.length} hook runs: ${runs.map((r) => `${r.event} ${r.ms} ms`).join(', ')}`);
    assert.ok(runs.length > 1, 'more than one run was needed: the limit held');
    assert.deepEqual(await memoriesOf(root, env), expected, 'the same memories as one uninterrupted read, none twice');
  });

  it('loses nothing and adds nothing twice when killed (SIGKILL) in the middle of a slice', async () => {
    const root = project();
    const transcript = writeLargeTranscript(path.join(tempDir(), `${SESSION}.jsonl`), { root, sessionId: SESSION, megabytes: 20 });
    const expected = await readInOneGo(root, transcript);
    // The longest limit there is (config.json refuses more and falls back to 2 s), so only the kill
    // ends each run: each is killed mid-slice, until one gets to the end.
    const env = isolatedEnv();
    mkdirSync(env.ENGRAM_HOME!, { recursive: true });
    writeFileSync(path.join(env.ENGRAM_HOME!, 'config.json'), JSON.stringify({ hooks: { timeoutMs: 60_000 } }));
    const offsets: number[] = [0];
    let killed = 0;
    const progressedWhileKilled = () => offsets.filter((offset, i) => i > 0 && offset > offsets[i - 1]! && offset < transcript.bytes).length;
    // Four killed runs that kept what they committed show it; the cap stops runs that never commit.
    while (killed < 30 && progressedWhileKilled() < 4) {
      const run = await hook('stop', stopInput(root, transcript), env, root, KILL_AFTER_MS);
      const reached = savedOffset(root, env, transcript.file);
      assert.ok(reached >= offsets.at(-1)!, `a kill lost what an earlier run committed: ${offsets.join(', ')}, then ${reached}`);
      offsets.push(reached);
      if (run.signal !== 'SIGKILL') break;
      killed++;
    }
    assert.ok(progressedWhileKilled() >= 2, `killed runs keep what they committed: ${offsets.join(', ')}`);
    const last = await hook('stop', stopInput(root, transcript), env, root, 120_000);
    assert.equal(last.code, 0);
    assert.equal(savedOffset(root, env, transcript.file), transcript.bytes);
    assert.deepEqual(await memoriesOf(root, env), expected, 'the same memories as one uninterrupted read, none twice, none lost');
  });
});
