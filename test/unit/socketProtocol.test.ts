import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { memoryServerSocketPath } from '../../server/src/socket/socketPath';
import { servedByMemoryServer } from '../../server/src/socket/socketProtocol';
import { socketRequestSchema } from '../../server/src/socket/socketRequest';

describe("the memory server's socket", () => {
  it('lives in the data folder, in a private temp folder when that is too long for a socket, or is a named pipe', () => {
    assert.equal(memoryServerSocketPath('a1b2-c3', '/home/u/.local/share/engram', 'linux'), '/home/u/.local/share/engram/run/engram-a1b2-c3.sock');
    const long = memoryServerSocketPath('a1b2-c3', `/home/${'x'.repeat(120)}/engram`, 'linux');
    assert.equal(path.dirname(path.dirname(long)), os.tmpdir());
    assert.match(path.basename(path.dirname(long)), /^engram-/);
    assert.ok(Buffer.byteLength(long) <= 100);
    assert.equal(memoryServerSocketPath('a1b2/../c3', 'C:\\Users\\u\\AppData\\Local\\engram', 'win32'), '\\\\.\\pipe\\engram-a1b2c3', 'no path tricks in the name');
  });

  it('answers context hooks and recall, and leaves ingesting hooks and batches to their own process', () => {
    assert.equal(servedByMemoryServer(['hook', 'session-start']), true);
    assert.equal(servedByMemoryServer(['hook', 'user-prompt-submit']), true);
    assert.equal(servedByMemoryServer(['recall', '--query', 'x', '--json']), true);
    for (const argv of [['hook', 'stop'], ['hook', 'pre-compact'], ['hook', 'post-tool-use'], ['hook'], ['recall', '--batch', '-'], ['recall', '--batch=q.jsonl'], ['recall', '--help'], ['remember', 'x'], ['lsp']]) {
      assert.equal(servedByMemoryServer(argv), false, argv.join(' '));
    }
  });

  it('takes only a well-formed request', () => {
    assert.ok(socketRequestSchema.safeParse({ argv: ['recall'], cwd: '/p', env: { ENGRAM_WINDOW: 'w' } }).success);
    for (const bad of [{ argv: [], cwd: '/p', env: {} }, { argv: ['recall'], cwd: '', env: {} }, { argv: ['recall'], cwd: '/p', env: { PATH: '/evil' } }, { argv: ['recall'], cwd: '/p', env: {}, extra: 1 }, null, 'recall']) {
      assert.equal(socketRequestSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});
