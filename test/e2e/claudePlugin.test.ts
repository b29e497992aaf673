// Issue "Engram as a Claude Code plugin", done-when: the real Claude Code CLI (pinned, offline)
// installs the plugin from a local marketplace folder, in a project with no Claude Code settings
// written by Engram, and gets Engram's memory through it: the pinned constraint at session start
// and again after /compact, an Edit as a diff memory with its why, the MCP tools, /engram:status;
// uninstalling leaves the memories; with the connector also set up, each hook works once.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DEMO_CONSTRAINT, prepareDemo } from '../../scripts/lib/demo.mjs';
import { MARKETPLACE, writePlugin } from '../../scripts/lib/plugin.mjs';
import { BINDING_TARGETS } from '../../server/src/store/nativeBinding';
import { createClaudeHome, runClaude, type ClaudeRun } from '../support/claude/runClaude';
import { COMPACTION_REQUEST, lastUserMessage, messageText, type MessagesRequest, type StandInScript } from '../support/claude/standInApi';
import { poolSizeEditRules } from '../support/claude/scriptedTurns';
import { assertBuilt, runEngram } from '../support/engramProcess';
import { tempDir } from '../support/tempDirs';

const PLUGIN = `engram@${MARKETPLACE}`;

function requestText(request: MessagesRequest): string {
  return request.messages.map(messageText).join('\n');
}

function succeeded(run: ClaudeRun): void {
  assert.equal(run.exitCode, 0, `claude exited ${run.exitCode}\n${run.stdout}\n${run.stderr}`);
}

describe('Engram as a Claude Code plugin', { timeout: 900_000 }, () => {
  assertBuilt();
  const home = createClaudeHome();
  const base = tempDir('engram-plugin-');
  const engramHome = path.join(base, 'engram-home');
  const { workspaceDir } = prepareDemo({ workspaceDir: path.join(base, 'demo'), engramHome });
  const workspace = realpathSync(workspaceDir);
  const marketplace = path.join(base, 'marketplace');
  // The plugin runs on `node` from PATH: this test's Node (the machine's may be too old).
  const claudeEnv = { ENGRAM_HOME: engramHome, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` };
  const engramEnv = { ...process.env, ...claudeEnv, HOME: home.home, CLAUDE_CONFIG_DIR: home.configDir };
  const engram = (args: string[]) => runEngram(args, { env: engramEnv, cwd: workspace });
  const claudeCli = (args: string[], script: StandInScript = { rules: [] }) => runClaude({ home, cwd: workspace, args, script, env: claudeEnv });
  const claude = (prompt: string, script: StandInScript, first = false) =>
    claudeCli(['-p', prompt, '--output-format', 'json', '--dangerously-skip-permissions', ...(first ? [] : ['--continue'])], script);
  const hookLog = () => readFileSync(path.join(engramHome, 'logs', 'hooks.log'), 'utf8').split('\n').filter(Boolean);
  const sessionOf = (run: ClaudeRun) => (JSON.parse(run.stdout) as { session_id: string }).session_id;

  it('is accepted by `claude plugin validate` (strict), as a plugin and as a marketplace', async () => {
    await writePlugin(marketplace, BINDING_TARGETS);
    for (const folder of [marketplace, path.join(marketplace, 'engram')]) {
      const run = await claudeCli(['plugin', 'validate', '--strict', folder]);
      assert.equal(run.exitCode, 0, `${folder}:\n${run.stdout}\n${run.stderr}`);
      assert.match(run.stdout, /Validation passed/);
    }
    const hooks = JSON.parse(readFileSync(path.join(marketplace, 'engram', 'hooks', 'hooks.json'), 'utf8')).hooks;
    assert.deepEqual(Object.keys(hooks).sort(), ['PostToolUse', 'PreCompact', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    for (const binding of BINDING_TARGETS) assert.ok(existsSync(path.join(marketplace, 'engram', 'dist', 'native', `${binding}.node`)), binding);
  });

  it('installs with `claude plugin marketplace add` and `claude plugin install`, writing nothing into the project', async () => {
    succeeded(await claudeCli(['plugin', 'marketplace', 'add', marketplace]));
    succeeded(await claudeCli(['plugin', 'install', PLUGIN]));
    const list = await claudeCli(['plugin', 'list']);
    succeeded(list);
    assert.match(list.stdout, new RegExp(`${PLUGIN}[\\s\\S]*enabled`));
    for (const file of ['settings.json', 'settings.local.json']) assert.ok(!existsSync(path.join(workspace, '.claude', file)), `.claude/${file} exists`);
  });

  it('gives the pinned constraint at session start', async () => {
    const run = await claude('Where does findCustomer in src/db.ts look customers up?', { rules: [{ lastUserIncludes: 'findCustomer', reply: { text: 'Through query().' } }] }, true);
    succeeded(run);
    assert.match(requestText(run.modelRequests[0]!), /SessionStart hook additional context: <engram-memory>\n[^\n]*\nConstraints that apply here:\n- \[constraint, hard pin, from the user\] «All SQL goes through query\(\) with bound parameters/);
    const session = sessionOf(run);
    const lines = hookLog().filter((line) => line.includes(` ${session} `));
    for (const event of ['session-start', 'user-prompt-submit']) assert.ok(lines.some((line) => line.includes(`${event} ${session} ok`)), `${event}:\n${lines.join('\n')}`);
    assert.ok(!lines.some((line) => / deferred /.test(line)), lines.join('\n'));
  });

  it('records a scripted Edit as a diff memory with its why', async () => {
    const db = path.join(workspace, 'src', 'db.ts');
    const run = await claude('Make the pool size in src/db.ts configurable.', {
      rules: poolSizeEditRules(db),
    });
    succeeded(run);
    assert.deepEqual(run.unusedRules, []);
    const results = JSON.parse((await engram(['recall', '--file', 'src/db.ts', '--json', '--limit', '30'])).stdout).results as { kind: string; source: string; why: string; sourceRef: string }[];
    const diff = results.find((m) => m.kind === 'diff' && m.source === 'claude');
    assert.ok(diff, JSON.stringify(results));
    assert.match(diff.why, /^I decided to read POOL_SIZE from the environment because operators must tune the pool without a rebuild\./);
    assert.match(diff.sourceRef, /^claude:tool:/);
    assert.ok(hookLog().some((line) => /post-tool-use \S+ ok \d+ms recorded m_/.test(line)));
  });

  it('gives the constraint again after /compact', async () => {
    succeeded(await claude('/compact', { rules: [{ lastUserIncludes: COMPACTION_REQUEST, reply: { text: '<analysis>x</analysis><summary>We made the pool size configurable through POOL_SIZE.</summary>' } }] }));
    const next = await claude('Carry on: add a test for POOL_SIZE.', { rules: [{ lastUserIncludes: 'Carry on', reply: { text: 'Will do.' } }] });
    succeeded(next);
    const text = requestText(next.modelRequests[0]!);
    const at = text.indexOf('Engram memory (restored after compaction)');
    assert.ok(at >= 0, text.slice(-3000));
    assert.ok(text.slice(at).includes(DEMO_CONSTRAINT));
  });

  it("lists Engram's MCP tools, and recall answers", async () => {
    let tools: string[] = [];
    let answer = '';
    const run = await claude(
      'What does Engram remember about SQL?',
      {
        rules: [
          {
            lastUserIncludes: 'remember about SQL',
            when: (request) => {
              const named: string[] = [...(requestText(request).match(/mcp__plugin_engram_engram__[a-z_]+/g) ?? []), ...(request.tools ?? []).map((t) => t.name)];
              tools = [...new Set(named.filter((name) => name.includes('engram')))];
              return true;
            },
            reply: { toolUses: [{ name: 'ToolSearch', input: { query: 'select:mcp__plugin_engram_engram__recall' } }] },
          },
          { afterToolResultOf: 'ToolSearch', offersTool: 'mcp__plugin_engram_engram__recall', reply: { toolUses: [{ name: 'mcp__plugin_engram_engram__recall', input: { query: 'SQL bound parameters' } }] } },
          {
            afterToolResultOf: 'mcp__plugin_engram_engram__recall',
            when: (request) => {
              answer = messageText(lastUserMessage(request)!);
              return true;
            },
            reply: { text: 'All SQL goes through query().' },
          },
        ],
      },
      true,
    );
    succeeded(run);
    assert.deepEqual(run.unusedRules, [], `tools seen: ${tools.join(', ')}`);
    for (const tool of ['remember', 'recall', 'timeline']) assert.ok(tools.includes(`mcp__plugin_engram_engram__${tool}`), tools.join(', '));
    assert.match(answer, /All SQL goes through query\(\) with bound parameters/);
  });

  it('/engram:status runs the CLI and reports that the plugin runs the hooks', async () => {
    let given = '';
    const run = await claude('/engram:status', { rules: [{ anyIncludes: "Engram's report for this project", when: (request) => ((given = requestText(request)), true), reply: { text: 'Engram is healthy.' } }] }, true);
    succeeded(run);
    assert.deepEqual(run.unusedRules, []);
    assert.match(given, /the plugin engram@engram 0\.1\.0 runs the hooks, on node v\d+/);
  });

  it('with no node on PATH, the hooks give nothing and Claude Code works on; `engram doctor` says why', async () => {
    const before = hookLog().length;
    const run = await runClaude({ home, cwd: workspace, args: ['-p', 'Any news?', '--output-format', 'json', '--dangerously-skip-permissions'], script: { rules: [{ lastUserIncludes: 'Any news', reply: { text: 'No.' } }] }, env: claudeEnv, hideNode: true });
    succeeded(run);
    assert.deepEqual(run.unusedRules, []);
    assert.doesNotMatch(requestText(run.modelRequests[0]!), /<engram-memory>/);
    assert.equal(hookLog().length, before, 'no hook ran Engram');
    const { pathWithoutNode } = await import('../../scripts/lib/hideNode.mjs');
    const noNode = pathWithoutNode(path.join(base, 'path-without-node'), engramEnv);
    const doctor = await runEngram(['doctor', '--json'], { env: { ...engramEnv, PATH: noNode }, cwd: workspace });
    const check = (JSON.parse(doctor.stdout) as { checks: { name: string; warning?: boolean; detail: string }[] }).checks.find((c) => c.name === 'claude')!;
    assert.equal(check.warning, true);
    assert.match(check.detail, /the plugin engram@engram 0\.1\.0 runs the hooks, but there is no node on PATH: they give Claude Code nothing\. Install Node\.js 22\.14 or newer/);
  });

  it('at session start, records files changed by hand since the last session as diff memories from the disk', async () => {
    const pool = path.join(workspace, 'src', 'pool.ts');
    writeFileSync(pool, `${readFileSync(pool, 'utf8')}\nexport const POOL_IDLE_MS = 30_000;\n`);
    succeeded(await claude('Hello again.', { rules: [{ lastUserIncludes: 'Hello again', reply: { text: 'Hi.' } }] }, true));
    const results = JSON.parse((await engram(['recall', '--file', 'src/pool.ts', '--json', '--limit', '30'])).stdout).results as { kind: string; source: string; body: string }[];
    const byHand = results.find((m) => m.kind === 'diff' && m.source === 'disk');
    assert.ok(byHand, JSON.stringify(results));
    assert.match(byHand.body, /\+export const POOL_IDLE_MS = 30_000;/);
    assert.ok(hookLog().some((line) => / disk-pass - ok \d+ms checked \d+ files: 1 diff memories/.test(line)), hookLog().slice(-6).join('\n'));
  });

  it('with the connector also set up, each hook works once: the plugin steps aside, and `engram doctor` says so', async () => {
    const connected = await engram(['connect', 'claude', '--json']);
    assert.equal(connected.code, 0, connected.stderr);
    const run = await claude('Is the pool configurable now?', { rules: [{ lastUserIncludes: 'pool configurable', reply: { text: 'Yes.' } }] }, true);
    succeeded(run);
    const session = sessionOf(run);
    const lines = hookLog().filter((line) => line.includes(` ${session} `));
    for (const event of ['session-start', 'user-prompt-submit', 'stop', 'session-end']) {
      const ran = lines.filter((line) => line.includes(`${event} ${session} `));
      assert.equal(ran.filter((line) => / ok \d+ms/.test(line)).length, 1, `${event}:\n${ran.join('\n')}`);
      assert.equal(ran.filter((line) => / deferred \d+ms plugin: /.test(line)).length, 1, `${event}:\n${ran.join('\n')}`);
    }
    // Given once: the constraint is in the request once.
    assert.equal(requestText(run.modelRequests[0]!).split('All SQL goes through query() with bound parameters').length - 1, 1);
    const doctor = JSON.parse((await engram(['doctor', '--json'])).stdout) as { checks: { name: string; detail: string }[] };
    assert.match(doctor.checks.find((c) => c.name === 'claude')!.detail, /the connector's hooks run \(\.claude\/settings\.local\.json\); the plugin engram@engram 0\.1\.0 is enabled too and its hooks step aside/);
    assert.equal((await engram(['disconnect', 'claude'])).code, 0);
  });

  it('uninstalling the plugin leaves the memories in place', async () => {
    const before = JSON.parse((await engram(['stats', '--json'])).stdout);
    succeeded(await claudeCli(['plugin', 'uninstall', PLUGIN]));
    const list = await claudeCli(['plugin', 'list']);
    assert.doesNotMatch(list.stdout, new RegExp(PLUGIN));
    const after = JSON.parse((await engram(['stats', '--json'])).stdout);
    assert.deepEqual(after, before);
    assert.ok(before.total > 5, JSON.stringify(before));
    const recall = JSON.parse((await engram(['recall', '--query', 'POOL_SIZE environment', '--json'])).stdout).results as { why: string | null }[];
    assert.ok(recall.some((m) => m.why?.includes('operators must tune the pool')));
  });
});
