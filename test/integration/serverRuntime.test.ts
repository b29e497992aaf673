import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { findOnPath, resolveNodeRuntime } from '../../client/src/server/nodeRuntime';
import { tempDir } from '../support/tempDirs';

/** A stand-in `node` that reports the given version and ABI, like `node -p` would. */
function fakeNode(dir: string, version: string, abi: string): string {
  const file = path.join(dir, 'node');
  writeFileSync(file, `#!/bin/sh\necho "${version} ${abi}"\n`);
  chmodSync(file, 0o755);
  return file;
}

function bindingsFor(...abis: string[]): string {
  const dir = tempDir('engram-native-');
  for (const abi of abis) writeFileSync(path.join(dir, `better_sqlite3-abi${abi}.node`), '');
  return dir;
}

describe('choosing the Node.js that runs the memory server', () => {
  it('uses the engram.nodePath setting when it names a usable Node', async () => {
    const result = await resolveNodeRuntime(process.execPath, bindingsFor(process.versions.modules));
    assert.ok(result.ok);
    assert.equal(result.runtime.path, process.execPath);
    assert.equal(result.runtime.origin, 'setting');
    assert.equal(result.runtime.abi, process.versions.modules);
  });

  it('reports a setting that does not run instead of silently using another Node', async () => {
    const result = await resolveNodeRuntime('/nonexistent/bin/node', bindingsFor('115'));
    assert.equal(result.ok, false);
    assert.match((result as { reason: string }).reason, /\/nonexistent\/bin\/node \(from setting\) did not run/);
  });

  it('rejects a Node older than 20, saying which one it found', async () => {
    const node = fakeNode(tempDir(), '18.19.0', '108');
    const result = await resolveNodeRuntime(node, bindingsFor('115'));
    assert.equal(result.ok, false);
    assert.match((result as { reason: string }).reason, /is Node 18\.19\.0; Engram's memory server needs Node 20 or newer/);
  });

  it('rejects a Node whose ABI has no shipped SQLite binding', async () => {
    const node = fakeNode(tempDir(), '23.1.0', '131');
    const result = await resolveNodeRuntime(node, bindingsFor('115', '127', '137'));
    assert.equal(result.ok, false);
    assert.match((result as { reason: string }).reason, /Node 23\.1\.0 \(ABI 131\), but Engram ships SQLite bindings only for Node 20, 22 and 24/);
  });

  it('falls back to node on PATH, and explains when there is none', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'bin'));
    fakeNode(path.join(dir, 'bin'), '22.23.3', '127');
    assert.equal(findOnPath('node', { PATH: `/nonexistent:${path.join(dir, 'bin')}` }), path.join(dir, 'bin', 'node'));
    const saved = process.env.PATH;
    try {
      process.env.PATH = path.join(dir, 'bin');
      const found = await resolveNodeRuntime('', bindingsFor('127'));
      assert.ok(found.ok);
      assert.equal(found.runtime.origin, 'PATH');
      assert.equal(found.runtime.version, '22.23.3');
      process.env.PATH = '/nonexistent';
      const none = await resolveNodeRuntime('  ', bindingsFor('127'));
      assert.equal(none.ok, false);
      assert.match((none as { reason: string }).reason, /no `node` on PATH/);
    } finally {
      process.env.PATH = saved;
    }
  });
});
