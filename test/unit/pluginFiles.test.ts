import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CLAUDE_HOOK_TIMEOUT_S, ENGRAM_HOOKS } from '../../server/src/claude/hookSet';
import { hooksFile, launcherScript, mcpFile, pluginFiles } from '../../server/src/claude/pluginFiles';
import { tempDir } from '../support/tempDirs';

type Hooks = Record<string, { matcher: string; hooks: { type: string; command: string; timeout: number }[] }[]>;

const BUILD = { version: '1.2.3', description: 'Memory for coding agents.', license: 'MIT', marketplace: 'engram' };

describe("the Claude Code plugin's files", () => {
  it("hooks.json has the connector's hooks — same events, matchers and limits — each through the plugin's launcher", () => {
    const { hooks } = hooksFile() as { hooks: Hooks };
    for (const { event, hook, matcher } of ENGRAM_HOOKS) {
      const entry = hooks[event]!.find((g) => g.hooks.some((h) => h.command.endsWith(` hook ${hook}`)));
      assert.ok(entry, event);
      assert.equal(entry.matcher, matcher);
      assert.deepEqual(entry.hooks, [{ type: 'command', command: `sh "\${CLAUDE_PLUGIN_ROOT}/bin/engram" hook ${hook}`, timeout: CLAUDE_HOOK_TIMEOUT_S }]);
    }
    assert.deepEqual(Object.keys(hooks).sort(), [...new Set(ENGRAM_HOOKS.map((h) => h.event))].sort());
    // The disk pass runs at a session's start, not after a compaction.
    assert.deepEqual(hooks.SessionStart!.filter((g) => g.hooks[0]!.command.includes('ingest --disk --hook')).map((g) => g.matcher), ['startup|resume|clear']);
  });

  it('starts the MCP server with node itself (no shell), marked as the plugin', () => {
    assert.deepEqual(mcpFile(), { mcpServers: { engram: { type: 'stdio', command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/dist/engram.js', 'mcp'], env: { ENGRAM_FRONT_DOOR: 'plugin' } } } });
  });

  it('has the manifest, the five commands, and paths only through ${CLAUDE_PLUGIN_ROOT}', () => {
    const files = pluginFiles(BUILD);
    const manifest = JSON.parse(files.find((f) => f.path === '.claude-plugin/plugin.json')!.text);
    assert.deepEqual([manifest.name, manifest.version, manifest.license], ['engram', '1.2.3', 'MIT']);
    assert.deepEqual(files.filter((f) => f.path.startsWith('commands/')).map((f) => f.path).sort(), ['forget', 'pin', 'recall', 'remember', 'status'].map((c) => `commands/${c}.md`));
    for (const file of files.filter((f) => f.path.startsWith('commands/'))) {
      assert.match(file.text, /^---\ndescription: .+\n/, file.path);
      assert.match(file.text, /sh "\$\{CLAUDE_PLUGIN_ROOT\}\/bin\/engram" /, file.path);
    }
    assert.ok(files.every((f) => !f.text.includes('/work/') && !f.text.includes('/tmp/')), 'no path of the build machine');
  });
});

describe("the plugin's launcher (bin/engram)", () => {
  function install(withNode: 'none' | 'fake') {
    const root = tempDir('engram-launcher-');
    mkdirSync(path.join(root, 'plugin', 'bin'), { recursive: true });
    mkdirSync(path.join(root, 'plugin', 'dist'), { recursive: true });
    writeFileSync(path.join(root, 'plugin', 'bin', 'engram'), launcherScript());
    writeFileSync(path.join(root, 'plugin', 'dist', 'engram.js'), '');
    const pathDir = path.join(root, 'path');
    mkdirSync(pathDir);
    // `dirname` is all the launcher needs besides a shell; a fake node prints what it was given.
    for (const tool of ['dirname']) {
      const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      writeFileSync(path.join(pathDir, tool), `#!/bin/sh\nexec ${found} "$@"\n`);
      chmodSync(path.join(pathDir, tool), 0o755);
    }
    if (withNode === 'fake') {
      writeFileSync(path.join(pathDir, 'node'), '#!/bin/sh\necho "node $ENGRAM_FRONT_DOOR $*"\n');
      chmodSync(path.join(pathDir, 'node'), 0o755);
    }
    const sh = spawnSync('sh', ['-c', 'command -v sh'], { encoding: 'utf8' }).stdout.trim();
    return (...args: string[]) => spawnSync(sh, [path.join(root, 'plugin', 'bin', 'engram'), ...args], { encoding: 'utf8', env: { PATH: pathDir }, input: '{}' });
  }

  it('runs the bundled CLI on node from PATH, marked as the plugin', () => {
    const run = install('fake')('hook', 'session-start');
    assert.equal(run.status, 0);
    assert.match(run.stdout, /^node plugin \/.*\/plugin\/bin\/\.\.\/dist\/engram\.js hook session-start\n$/);
  });

  it('with no node: a hook exits 0 with no output; a command says what is missing and exits 1', () => {
    const run = install('none');
    for (const args of [['hook', 'user-prompt-submit'], ['ingest', '--disk', '--hook']]) {
      const hook = run(...args);
      assert.deepEqual([hook.status, hook.stdout, hook.stderr], [0, '', ''], args.join(' '));
    }
    const command = run('doctor');
    assert.equal(command.status, 1);
    assert.equal(command.stdout, '');
    assert.match(command.stderr, /needs Node\.js 22\.14 or newer on PATH, and there is no node on PATH/);
  });
});
