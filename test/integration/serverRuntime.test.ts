import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { findOnPath, resolveServerRuntime } from '../../client/src/server/serverRuntime';
import { assertBuilt, ENGRAM_JS, REPO_ROOT } from '../support/engramProcess';
import { tempDir } from '../support/tempDirs';

/** A stand-in runtime: a script that runs this test's Node with extra environment, or does something else entirely. */
function script(body: string): string {
  const file = path.join(tempDir(), 'runtime');
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** A folder with `node` in it, for PATH. */
function pathWithNode(target: string): string {
  const dir = path.join(tempDir(), 'bin');
  mkdirSync(dir);
  symlinkSync(target, path.join(dir, 'node'));
  return dir;
}

// Each candidate is asked with the real `engram doctor --runtime`, so these run the built CLI on real runtimes.
describe('choosing the runtime that runs the memory server', () => {
  let node20: string;
  before(async () => {
    assertBuilt();
    const toolchain = await import(path.join(REPO_ROOT, 'scripts', 'lib', 'toolchain.mjs'));
    node20 = await toolchain.ensureNode(20);
  });
  const modern = process.execPath;

  it("runs on the editor's own runtime when it can load SQLite, with nothing installed", async () => {
    const result = await resolveServerRuntime({ configured: '', editor: modern, engramJs: ENGRAM_JS, env: { PATH: '' } });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.runtime.path, modern);
    assert.equal(result.runtime.origin, 'editor');
    assert.match(result.runtime.detail, new RegExp(`^Node ${process.version} at .* \\(the editor's own runtime\\)$`));
    assert.deepEqual(result.runtime.passedOver, []);
  });

  it('falls back to node on PATH when the editor runtime cannot load the binding, and says why', async () => {
    const editor = script(`ENGRAM_NATIVE_BINDING=/nonexistent/sqlite.node exec '${modern}' "$@"`);
    const result = await resolveServerRuntime({ configured: '', editor, engramJs: ENGRAM_JS, env: { PATH: pathWithNode(modern) } });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.runtime.origin, 'path');
    assert.equal(result.runtime.passedOver.length, 1);
    assert.match(result.runtime.passedOver[0]!, /^the editor's own runtime \(.*\): .*\/nonexistent\/sqlite\.node/);
  });

  it('passes over a runtime older than Node 22 and one that crashes, naming each', async () => {
    const crashing = script('kill -SEGV $$');
    const result = await resolveServerRuntime({ configured: '', editor: crashing, engramJs: ENGRAM_JS, env: { PATH: pathWithNode(node20) } });
    assert.equal(result.ok, false);
    const reason = (result as { reason: string }).reason;
    assert.match(reason, /^No runtime can run Engram's memory server\. Tried the editor's own runtime \(.*\): it crashed \(SIGSEGV\); `node` on PATH \(.*\): Engram needs Node\.js 22\.14 or newer; this is Node 20\./);
    assert.match(reason, /Install Node\.js 22\.14 or newer, or set engram\.nodePath\.$/);
  });

  it('says there is no node on PATH when there is none', async () => {
    const result = await resolveServerRuntime({ configured: '', editor: node20, engramJs: ENGRAM_JS, env: { PATH: '/nonexistent' } });
    assert.equal(result.ok, false);
    assert.match((result as { reason: string }).reason, /`node` on PATH: there is none/);
  });

  it('uses the engram.nodePath setting when it runs Engram', async () => {
    const result = await resolveServerRuntime({ configured: ` ${modern} `, editor: node20, engramJs: ENGRAM_JS });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.runtime.origin, 'setting');
    assert.match(result.runtime.detail, /\(the engram\.nodePath setting\)$/);
  });

  it('reports a setting that cannot run Engram instead of silently using another runtime', async () => {
    const missing = await resolveServerRuntime({ configured: '/nonexistent/bin/node', editor: modern, engramJs: ENGRAM_JS });
    assert.equal(missing.ok, false);
    assert.match((missing as { reason: string }).reason, /^The engram\.nodePath setting \(\/nonexistent\/bin\/node\) cannot run Engram: .*ENOENT/);
    const old = await resolveServerRuntime({ configured: node20, editor: modern, engramJs: ENGRAM_JS });
    assert.equal(old.ok, false);
    assert.match((old as { reason: string }).reason, /cannot run Engram: Engram needs Node\.js 22\.14 or newer; this is Node 20\.\d+\.\d+/);
  });

  it('finds node on PATH by the platform rules', () => {
    const dir = pathWithNode(modern);
    assert.equal(findOnPath('node', { PATH: `/nonexistent${path.delimiter}${dir}` }), path.join(dir, 'node'));
    assert.equal(findOnPath('node', { PATH: '' }), null);
    // On Windows only an executable counts: node.exe, not a node.cmd that needs a shell.
    assert.equal(findOnPath('node', { PATH: dir }, 'win32'), null);
    const unrunnable = path.join(tempDir(), 'bin');
    mkdirSync(unrunnable);
    writeFileSync(path.join(unrunnable, 'node'), '', { mode: 0o644 });
    assert.equal(findOnPath('node', { PATH: `${unrunnable}${path.delimiter}${dir}` }), path.join(dir, 'node'));
  });
});
