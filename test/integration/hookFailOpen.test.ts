import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { findNativeBinding } from '../../server/src/store/nativeBinding';
import { databasePathFor } from '../../server/src/paths/engramPaths';
import { assertBuilt, ENGRAM_JS, runEngram } from '../support/engramProcess';
import { isolatedEnv, tempDir } from '../support/tempDirs';

function project(): string {
  const root = tempDir('engram-hook-project-');
  mkdirSync(path.join(root, '.git'));
  return root;
}

/** `engram hook EVENT` with stdin left open: what Claude Code would see if it never closed it. */
function hookWithOpenStdin(event: string, env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; stdout: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [ENGRAM_JS, 'hook', event], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, ms: performance.now() - started });
    });
    child.stdin.write('{"session_id": "s-open", "prompt": "half a JSON');
  });
}

describe('engram hook fails open, and engram doctor says so', () => {
  before(assertBuilt);

  it('answers good input with context JSON, and bad input, binary input or an unknown event with exit 0 and nothing on stdout', async () => {
    const env = isolatedEnv();
    const cwd = project();
    await runEngram(['remember', '--kind', 'constraint', '--pin', 'hard', 'Never log raw card numbers'], { env, cwd });
    const good = await runEngram(['hook', 'session-start'], { env, cwd, stdin: JSON.stringify({ session_id: 's-good', cwd, hook_event_name: 'SessionStart', source: 'startup' }) });
    assert.equal(good.code, 0, good.stderr);
    const output = JSON.parse(good.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    assert.equal(output.hookSpecificOutput.hookEventName, 'SessionStart');
    assert.match(output.hookSpecificOutput.additionalContext, /Never log raw card numbers/);

    const bad = [
      { args: ['hook', 'user-prompt-submit'], stdin: '{not json' },
      { args: ['hook', 'user-prompt-submit'], stdin: JSON.stringify({ prompt: 'no session id' }) },
      { args: ['hook', 'user-prompt-submit'], stdin: Buffer.from([0xff, 0xfe, 0x00, 0x9c, 0x80]).toString('latin1') },
      { args: ['hook', 'user-prompt-submit'], stdin: '' },
      { args: ['hook', 'no-such-event'], stdin: JSON.stringify({ session_id: 's1', cwd }) },
    ];
    for (const { args, stdin } of bad) {
      const run = await runEngram(args, { env, cwd, stdin });
      assert.equal(run.code, 0, `${args.join(' ')} with ${JSON.stringify(stdin)}: ${run.stderr}`);
      assert.equal(run.stdout, '', `${args.join(' ')} with ${JSON.stringify(stdin)} printed something`);
    }

    const doctor = JSON.parse((await runEngram(['doctor', '--json'], { env, cwd })).stdout) as { ok: boolean; checks: { name: string; ok: boolean; warning?: boolean; detail: string }[] };
    const hooks = doctor.checks.find((c) => c.name === 'hooks');
    assert.ok(hooks, JSON.stringify(doctor));
    assert.equal(hooks.warning, true, hooks.detail);
    assert.match(hooks.detail, /6 hook runs in the last 7 days \(1 ok, 4 bad-input, 1 unknown-event\)/);
    assert.match(hooks.detail, /5 gave Claude Code nothing, the last: \S+ no-such-event - unknown-event/);
    assert.equal(doctor.ok, true, 'failed hooks are a warning: the memory itself works');
  });

  it('records an Edit reported by PostToolUse as a diff memory of the edited function, once', async () => {
    const env = isolatedEnv();
    const cwd = project();
    mkdirSync(path.join(cwd, 'src'));
    const before = ['export function total(items: number[]) {', '  return items.reduce((a, b) => a + b, 0);', '}', ''].join('\n');
    writeFileSync(path.join(cwd, 'src', 'cart.ts'), before);
    const edit = {
      session_id: 's-edit',
      cwd,
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_use_id: 'toolu_cart_total',
      tool_input: { file_path: path.join(cwd, 'src', 'cart.ts'), old_string: 'a + b, 0', new_string: 'a + b, 0) * 100 / 100' },
      tool_response: {
        filePath: path.join(cwd, 'src', 'cart.ts'),
        oldString: 'a + b, 0',
        newString: 'a + b, 0) * 100 / 100',
        originalFile: before,
        structuredPatch: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1, lines: ['-  return items.reduce((a, b) => a + b, 0);', '+  return items.reduce((a, b) => a + b, 0) * 100 / 100);'] }],
        userModified: false,
        replaceAll: false,
      },
    };
    for (let i = 0; i < 2; i++) {
      const run = await runEngram(['hook', 'post-tool-use'], { env, cwd, stdin: JSON.stringify(edit) });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, '');
    }
    const recalled = JSON.parse((await runEngram(['recall', '--file', 'src/cart.ts', '--json'], { env, cwd })).stdout) as { results: { kind: string; title: string; symbols: string[]; sourceRef: string }[] };
    const diffs = recalled.results.filter((r) => r.kind === 'diff');
    assert.equal(diffs.length, 1, JSON.stringify(recalled));
    assert.deepEqual(diffs[0]!.symbols, ['total']);
    assert.equal(diffs[0]!.sourceRef, 'claude:tool:toolu_cart_total');
    assert.match(diffs[0]!.title, /total/);
  });

  it('ends within its time limit, with exit 0 and no output, when stdin never closes', async () => {
    const env = isolatedEnv();
    mkdirSync(env.ENGRAM_HOME!, { recursive: true });
    writeFileSync(path.join(env.ENGRAM_HOME!, 'config.json'), JSON.stringify({ hooks: { timeoutMs: 500 } }));
    const run = await hookWithOpenStdin('user-prompt-submit', env, project());
    assert.equal(run.code, 0);
    assert.equal(run.stdout, '');
    assert.ok(run.ms < 5000, `took ${run.ms.toFixed(0)} ms`);
  });

  it('gives its context while another writer holds the database, and logs what it gave once the database is free', async () => {
    const env = isolatedEnv();
    const cwd = project();
    await runEngram(['remember', '--kind', 'constraint', '--pin', 'hard', 'Never log raw card numbers'], { env, cwd });
    const other = new Database(databasePathFor(cwd, env), { nativeBinding: findNativeBinding() });
    const hookInput = (extra: object) => JSON.stringify({ session_id: 's-locked', cwd, ...extra });
    try {
      // Another writer in the middle of a transaction, as during an `engram import`.
      other.exec('BEGIN IMMEDIATE');
      const started = performance.now();
      const start = await runEngram(['hook', 'session-start'], { env, cwd, stdin: hookInput({ hook_event_name: 'SessionStart', source: 'startup' }) });
      const ms = performance.now() - started;
      assert.equal(start.code, 0, start.stderr);
      assert.match(start.stdout, /Never log raw card numbers/, 'the context is given');
      assert.ok(ms < 2000, `took ${ms.toFixed(0)} ms`);
      const prompt = await runEngram(['hook', 'user-prompt-submit'], { env, cwd, stdin: hookInput({ hook_event_name: 'UserPromptSubmit', prompt: 'What may the payment log show?' }) });
      assert.equal(prompt.code, 0);
      assert.equal(prompt.stdout, '', 'what the session was given counts before it is logged: nothing twice');
    } finally {
      other.exec('ROLLBACK');
    }
    const later = await runEngram(['hook', 'user-prompt-submit'], { env, cwd, stdin: hookInput({ hook_event_name: 'UserPromptSubmit', prompt: 'And the audit log?' }) });
    assert.equal(later.stdout, '');
    const logged = other.prepare('SELECT session_id AS session, event, memory_id AS memory FROM injections').all() as { session: string; event: string; memory: string }[];
    other.close();
    assert.deepEqual(logged.map((row) => [row.session, row.event]), [['s-locked', 'session-start']], 'logged by the next hook that could write');
    assert.match(readFileSync(path.join(env.ENGRAM_HOME!, 'logs', 'hooks.log'), 'utf8'), /session-start s-locked ok \d+ms startup: 1 memories, \d+ tokens; injection log deferred: the database is busy/);
    assert.deepEqual(readdirSync(path.dirname(databasePathFor(cwd, env))).filter((name) => name.includes('pending')), [], 'nothing left waiting');
  });

  it('does nothing for a cwd that does not exist: exit 0, no output, no database made for it, a log line', async () => {
    const env = isolatedEnv();
    const missing = path.join(tempDir(), 'deleted-worktree');
    const transcript = path.join(tempDir(), 's-gone.jsonl');
    writeFileSync(transcript, '');
    for (const event of ['session-start', 'user-prompt-submit', 'post-tool-use', 'stop']) {
      const run = await runEngram(['hook', event], { env, cwd: tempDir(), stdin: JSON.stringify({ session_id: 's-gone', cwd: missing, transcript_path: transcript, prompt: 'hello', tool_name: 'Edit', tool_use_id: 't1' }) });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, '');
    }
    assert.equal(existsSync(path.join(env.ENGRAM_HOME!, 'projects')), false, 'no database was made');
    const log = readFileSync(path.join(env.ENGRAM_HOME!, 'logs', 'hooks.log'), 'utf8');
    assert.equal(log.match(/s-gone bad-input \d+ms the project folder \S*deleted-worktree does not exist/g)?.length, 4, log);
  });

  it('says so in doctor when no hook has run yet', async () => {
    const env = isolatedEnv();
    const doctor = JSON.parse((await runEngram(['doctor', '--json'], { env, cwd: project() })).stdout) as { checks: { name: string; detail: string }[] };
    assert.match(doctor.checks.find((c) => c.name === 'hooks')!.detail, /no Claude Code hook ran in the last 7 days/);
  });
});
