import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { askMemoryServer } from '../../server/src/mailbox/mailboxClient';
import { mailboxFolderProblem } from '../../server/src/mailbox/mailboxFolder';
import { memoryServerMailbox } from '../../server/src/mailbox/mailboxPath';
import { openMailbox } from '../../server/src/mailbox/mailboxServer';
import { engramHome } from '../../server/src/store/paths';
import { platformPaths } from '../../server/src/store/platformPaths';
import { decodeReply, encodeReply, servedByMemoryServer } from '../../server/src/mailbox/mailboxProtocol';
import { mailboxRequestSchema } from '../../server/src/mailbox/mailboxRequest';
import { tempDir } from '../support/tempDirs';

const windows = platformPaths('win32');
const mac = platformPaths('darwin');
const linux = platformPaths('linux');

const quietLog = { info: () => undefined, warn: () => undefined };
const notHandled = async () => ({ reply: { handled: false as const, reason: 'test' } });

function modeOf(folder: string): string {
  return (statSync(folder).mode & 0o777).toString(8);
}

describe("the memory server's mailbox", () => {
  it("is a folder in the user's runtime directory, else in the data folder's run/, named by the window", () => {
    assert.equal(memoryServerMailbox('a1b2-c3', '/h', '/run/user/1000'), path.join('/run/user/1000', 'engram', 'engram-a1b2-c3'));
    assert.equal(memoryServerMailbox('a1b2-c3', '/h', 'relative'), path.join('/h', 'run', 'engram-a1b2-c3'), 'a relative runtime directory is not one');
    assert.equal(memoryServerMailbox('a1b2-c3', '/home/u/.local/share/engram'), path.join('/home/u/.local/share/engram', 'run', 'engram-a1b2-c3'));
    assert.equal(memoryServerMailbox('a1b2/../c3', '/h'), path.join('/h', 'run', 'engram-a1b2c3'), 'no path tricks in the name');
    assert.equal(memoryServerMailbox('///', '/h'), path.join('/h', 'run', 'engram-window'));
  });

  it('without XDG_RUNTIME_DIR is in run/ of the data folder of each platform', () => {
    const mailboxOf = (env: NodeJS.ProcessEnv, paths: typeof windows) => memoryServerMailbox('w1', engramHome(env, paths), env.XDG_RUNTIME_DIR, paths);
    assert.equal(mailboxOf({ LOCALAPPDATA: 'C:\\Users\\Me\\AppData\\Local' }, windows), 'C:\\Users\\Me\\AppData\\Local\\engram\\run\\engram-w1');
    assert.equal(mailboxOf({ HOME: '/Users/me' }, mac), '/Users/me/Library/Application Support/engram/run/engram-w1');
    assert.equal(mailboxOf({ HOME: '/home/me' }, linux), '/home/me/.local/share/engram/run/engram-w1');
    assert.equal(mailboxOf({ HOME: '/home/me', XDG_RUNTIME_DIR: '/run/user/1000' }, linux), '/run/user/1000/engram/engram-w1');
    assert.equal(mailboxOf({ HOME: '/home/me', XDG_RUNTIME_DIR: 'run/user/1000' }, linux), '/home/me/.local/share/engram/run/engram-w1', 'a relative one is ignored');
    assert.equal(mailboxOf({ HOME: '/home/me', XDG_RUNTIME_DIR: '' }, linux), '/home/me/.local/share/engram/run/engram-w1');
    assert.equal(mailboxOf({ LOCALAPPDATA: 'C:\\Local', XDG_RUNTIME_DIR: 'tmp\\run' }, windows), 'C:\\Local\\engram\\run\\engram-w1');
  });

  it('is made closed to other users (0700), run/ too, and a leftover opened to others is closed again', { skip: process.platform === 'win32' }, () => {
    const home = path.join(tempDir(), 'engram');
    const folder = memoryServerMailbox('w2', home);
    const first = openMailbox(folder, notHandled, quietLog);
    try {
      assert.equal(modeOf(folder), '700');
      assert.equal(modeOf(path.join(home, 'run')), '700');
    } finally {
      first.close();
    }
    mkdirSync(folder, { recursive: true });
    chmodSync(folder, 0o755);
    const second = openMailbox(folder, notHandled, quietLog);
    try {
      assert.equal(modeOf(folder), '700');
    } finally {
      second.close();
    }
  });

  it('is not used by a caller once it is open to other users, even with its server running', { skip: process.platform === 'win32' }, () => {
    const folder = memoryServerMailbox('w3', path.join(tempDir(), 'engram'));
    const server = openMailbox(folder, notHandled, quietLog);
    try {
      chmodSync(folder, 0o777);
      const started = Date.now();
      assert.equal(askMemoryServer(folder, { argv: ['recall', '--query', 'x'], cwd: '/p', env: {} }, 5_000), null);
      assert.ok(Date.now() - started < 1_000, 'refused at once, not after waiting for a reply');
    } finally {
      server.close();
    }
  });

  it('must be a private folder of this user, not a link nor a file', { skip: process.platform === 'win32' }, () => {
    const folder = path.join(tempDir(), 'box');
    assert.match(mailboxFolderProblem(folder)!, /ENOENT/);
    mkdirSync(folder, { mode: 0o700 });
    chmodSync(folder, 0o700);
    assert.equal(mailboxFolderProblem(folder), null);
    chmodSync(folder, 0o750);
    assert.match(mailboxFolderProblem(folder)!, /open to other users \(mode 750\)/);
    const link = path.join(tempDir(), 'link');
    symlinkSync(folder, link);
    assert.match(mailboxFolderProblem(link)!, /is not a folder/);
    const file = path.join(tempDir(), 'file');
    writeFileSync(file, '');
    assert.match(mailboxFolderProblem(file)!, /is not a folder/);
  });

  it('answers context hooks and recall, and leaves ingesting hooks and batches to their own process', () => {
    assert.equal(servedByMemoryServer(['hook', 'session-start']), true);
    assert.equal(servedByMemoryServer(['hook', 'user-prompt-submit']), true);
    assert.equal(servedByMemoryServer(['recall', '--query', 'x', '--json']), true);
    for (const argv of [['hook', 'stop'], ['hook', 'pre-compact'], ['hook', 'post-tool-use'], ['hook'], ['recall', '--batch', '-'], ['recall', '--batch=q.jsonl'], ['recall', '--help'], ['remember', 'x'], ['lsp']]) {
      assert.equal(servedByMemoryServer(argv), false, argv.join(' '));
    }
  });

  it('writes a reply as a JSON line and the output as it is, and reads it back exactly', () => {
    const stdout = `${JSON.stringify({ hookSpecificOutput: { additionalContext: 'Engram memory — "quoted"\n- [constraint] ✓ 𝄞' } })}\n`;
    for (const reply of [
      { handled: true as const, exitCode: 0, stdout, stderr: '' },
      { handled: true as const, exitCode: 2, stdout: '', stderr: 'engram recall: --line needs --file\n' },
      { handled: true as const, exitCode: 0, stdout: 'a\nb\n', stderr: 'warning\n' },
      { handled: false as const, reason: 'the project is not open in this window' },
    ]) {
      assert.deepEqual(decodeReply(encodeReply(reply)), reply);
    }
    assert.ok(encodeReply({ handled: true, exitCode: 0, stdout, stderr: '' }).endsWith(stdout), 'the output is not escaped again');
    for (const bad of ['', 'no newline', '{"handled": true}\n', '{"handled": true, "exitCode": 0, "stdoutLength": 10}\nshort', '[1]\n', 'null\n', '{"handled": false}\n']) {
      assert.equal(decodeReply(bad), null, JSON.stringify(bad));
    }
  });

  it('takes only a well-formed request', () => {
    assert.ok(mailboxRequestSchema.safeParse({ argv: ['recall'], cwd: '/p', env: { ENGRAM_WINDOW: 'w' } }).success);
    for (const bad of [{ argv: [], cwd: '/p', env: {} }, { argv: ['recall'], cwd: '', env: {} }, { argv: ['recall'], cwd: '/p', env: { PATH: '/evil' } }, { argv: ['recall'], cwd: '/p', env: {}, extra: 1 }, null, 'recall']) {
      assert.equal(mailboxRequestSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});
