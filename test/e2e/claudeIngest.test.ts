// Issue "Claude Code transcripts", done-when: the real Claude Code CLI (pinned, offline) makes a
// scripted edit in the demo workspace, and `engram recall` finds the diff memory with its why.
import assert from 'node:assert/strict';
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { prepareDemo } from '../../scripts/lib/demo.mjs';
import { createClaudeHome, runClaude } from '../support/claude/runClaude';
import { runEngram } from '../support/engramProcess';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const PROMPT = 'Make the pool size in src/db.ts configurable through an environment variable.';
const REASON = 'I will read POOL_SIZE from the environment, falling back to 10, so operators can tune the pool without a rebuild.';

test('an Edit by the real Claude Code CLI becomes a diff memory with its why, found by engram recall', { timeout: 300_000 }, async () => {
  const home = createClaudeHome();
  const base = tempDir('engram-claude-demo-');
  const { workspaceDir } = prepareDemo({ workspaceDir: path.join(base, 'demo'), engramHome: path.join(base, 'engram-home') });
  const workspace = realpathSync(workspaceDir);
  const db = path.join(workspace, 'src', 'db.ts');

  const run = await runClaude({
    home,
    cwd: workspace,
    args: ['-p', PROMPT, '--output-format', 'json', '--dangerously-skip-permissions'],
    script: {
      rules: [
        { lastUserIncludes: 'pool size', reply: { text: REASON, toolUses: [{ name: 'Read', input: { file_path: db } }] } },
        { afterToolResultOf: 'Read', reply: { toolUses: [{ name: 'Edit', input: { file_path: db, old_string: 'new Pool({ max: 10 })', new_string: 'new Pool({ max: Number(process.env.POOL_SIZE ?? 10) })' } }] } },
        { afterToolResultOf: 'Edit', reply: { text: 'The pool size now comes from POOL_SIZE.' } },
      ],
    },
  });
  assert.equal(run.exitCode, 0, `claude failed:\n${run.stdout}\n${run.stderr}`);
  assert.match(readFileSync(db, 'utf8'), /POOL_SIZE/);

  const env = isolatedEnv({ ENGRAM_HOME: path.join(base, 'engram-home'), CLAUDE_CONFIG_DIR: home.configDir });
  const ingest = await runEngram(['ingest', '--json'], { env, cwd: workspace });
  assert.equal(ingest.code, 0, ingest.stderr);
  assert.equal(JSON.parse(ingest.stdout).files, 1);

  const recall = await runEngram(['recall', '--file', 'src/db.ts', '--line', '3', '--json'], { env, cwd: workspace });
  const results = JSON.parse(recall.stdout).results as { kind: string; source: string; title: string; why: string | null; body: string; symbols: string[]; sessionId: string | null }[];
  const diff = results.find((m) => m.kind === 'diff' && m.source === 'claude');
  assert.ok(diff, `no diff memory from Claude Code in ${JSON.stringify(results.map((m) => m.title))}`);
  assert.equal(diff.title, 'Edited pool (+1 \u22121) in src/db.ts');
  assert.deepEqual(diff.symbols, ['pool']);
  assert.match(diff.body, /-const pool = new Pool\(\{ max: 10 \}\);\n\+const pool = new Pool\(\{ max: Number\(process\.env\.POOL_SIZE \?\? 10\) \}\);/);
  assert.equal(diff.why, `${REASON} (asked: "${PROMPT}")`);
  assert.equal(diff.sessionId, run.sessionId);
  assert.ok(results.some((m) => m.kind === 'intent' && m.title === `Asked: ${PROMPT}`), 'the prompt is remembered as intent');

  const again = await runEngram(['ingest', '--json'], { env, cwd: workspace });
  assert.equal(JSON.parse(again.stdout).memories, 0, 'ingesting again adds nothing');
});
