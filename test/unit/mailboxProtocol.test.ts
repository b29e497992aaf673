import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { findMemoryServer } from '../../server/src/mailbox/mailboxClient';
import { openMailboxFolder } from '../../server/src/mailbox/mailboxFolder';
import { isPrivateRuntimeDir, memoryServerMailbox } from '../../server/src/mailbox/mailboxPath';
import { openMailbox } from '../../server/src/mailbox/mailboxServer';
import { engramHome } from '../../server/src/paths/engramPaths';
import { platformPaths } from '../../server/src/paths/platformPaths';
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

const anyRuntimeDir = () => true;

function problemOf(folder: string): string | null {
  const opened = openMailboxFolder(folder);
  if ('problem' in opened) return opened.problem;
  opened.close();
  return null;
}

function privateFolder(): string {
  const folder = tempDir();
  chmodSync(folder, 0o700);
  return folder;
}

describe("the memory server's mailbox", () => {
  it("is a folder in the user's runtime directory, else in the data folder's run/, named by the window", () => {
    assert.equal(memoryServerMailbox('a1b2-c3', '/h', '/run/user/1000', undefined, anyRuntimeDir), path.join('/run/user/1000', 'engram', 'engram-a1b2-c3'));
    assert.equal(memoryServerMailbox('a1b2-c3', '/h', 'relative', undefined, anyRuntimeDir), path.join('/h', 'run', 'engram-a1b2-c3'), 'a relative runtime directory is not one');
    assert.equal(memoryServerMailbox('a1b2-c3', '/home/u/.local/share/engram'), path.join('/home/u/.local/share/engram', 'run', 'engram-a1b2-c3'));
    assert.equal(memoryServerMailbox('a1b2/../c3', '/h'), path.join('/h', 'run', 'engram-a1b2c3'), 'no path tricks in the name');
    assert.equal(memoryServerMailbox('///', '/h'), path.join('/h', 'run', 'engram-window'));
  });

  it('without XDG_RUNTIME_DIR is in run/ of the data folder of each platform', () => {
    const mailboxOf = (env: NodeJS.ProcessEnv, paths: typeof windows) => memoryServerMailbox('w1', engramHome(env, paths), env.XDG_RUNTIME_DIR, paths, anyRuntimeDir);
    assert.equal(mailboxOf({ LOCALAPPDATA: 'C:\\Users\\Me\\AppData\\Local' }, windows), 'C:\\Users\\Me\\AppData\\Local\\engram\\run\\engram-w1');
    assert.equal(mailboxOf({ HOME: '/Users/me' }, mac), '/Users/me/Library/Application Support/engram/run/engram-w1');
    assert.equal(mailboxOf({ HOME: '/home/me' }, linux), '/home/me/.local/share/engram/run/engram-w1');
    assert.equal(mailboxOf({ HOME: '/home/me', XDG_RUNTIME_DIR: '/run/user/1000' }, linux), '/run/user/1000/engram/engram-w1');
    assert.equal(mailboxOf({ HOME: '/home/me', XDG_RUNTIME_DIR: 'run/user/1000' }, linux), '/home/me/.local/share/engram/run/engram-w1', 'a relative one is ignored');
    assert.equal(mailboxOf({ HOME: '/home/me', XDG_RUNTIME_DIR: '' }, linux), '/home/me/.local/share/engram/run/engram-w1');
    assert.equal(mailboxOf({ LOCALAPPDATA: 'C:\\Local', XDG_RUNTIME_DIR: 'tmp\\run' }, windows), 'C:\\Local\\engram\\run\\engram-w1');
  });

  it('is not in a runtime directory that others can write to, nor in one of another user', { skip: process.platform === 'win32' }, () => {
    const runtime = privateFolder();
    assert.equal(isPrivateRuntimeDir(runtime), true);
    assert.equal(memoryServerMailbox('w1', '/h', runtime), path.join(runtime, 'engram', 'engram-w1'));
    chmodSync(runtime, 0o777);
    assert.equal(isPrivateRuntimeDir(runtime), false);
    assert.equal(memoryServerMailbox('w1', '/h', runtime), path.join('/h', 'run', 'engram-w1'), 'another user could make engram/ there first, or swap it');
    chmodSync(runtime, 0o1777);
    assert.equal(memoryServerMailbox('w1', '/h', runtime), path.join('/h', 'run', 'engram-w1'));
    assert.equal(memoryServerMailbox('w1', '/h', path.join(runtime, 'missing')), path.join('/h', 'run', 'engram-w1'));
  });

  it('is made closed to other users (0700), run/ too, and a leftover of a killed server opened to others is closed again', { skip: process.platform === 'win32' }, () => {
    const home = path.join(tempDir(), 'engram');
    const folder = memoryServerMailbox('w2', home);
    const first = openMailbox(folder, notHandled, quietLog);
    try {
      assert.equal(modeOf(folder), '700');
      assert.equal(modeOf(path.join(home, 'run')), '700');
    } finally {
      first.close();
    }
    assert.equal(existsSync(folder), false, 'the mailbox goes with its server');
    // A server killed with its mailbox in place, which someone then opened to others.
    const killed = openMailbox(folder, notHandled, quietLog);
    writeFileSync(path.join(folder, 'server.pid'), '999999999');
    writeFileSync(path.join(folder, 'x1-old.reply'), 'stale');
    chmodSync(folder, 0o755);
    const second = openMailbox(folder, notHandled, quietLog);
    try {
      assert.equal(modeOf(folder), '700');
      assert.equal(existsSync(path.join(folder, 'x1-old.reply')), false, "the earlier server's leftovers are cleared");
    } finally {
      second.close();
      killed.close();
    }
  });

  it("is not taken from a folder Engram did not make: its files stay, and it stays", { skip: process.platform === 'win32' }, () => {
    const folder = path.join(privateFolder(), 'notes');
    mkdirSync(folder, { mode: 0o700 });
    writeFileSync(path.join(folder, 'todo.txt'), 'mine');
    writeFileSync(path.join(folder, 'a1.request'), "looks like a request, is not Engram's");
    assert.throws(() => openMailbox(folder, notHandled, quietLog), /was not made by Engram: it is left as it is/);
    assert.deepEqual(readdirSync(folder).sort(), ['a1.request', 'todo.txt']);
  });

  it('removes only what it put there: a file someone added keeps the folder', { skip: process.platform === 'win32' }, () => {
    const folder = path.join(privateFolder(), 'engram-w4');
    const server = openMailbox(folder, notHandled, quietLog);
    writeFileSync(path.join(folder, 'keep-me.txt'), 'not a mailbox file');
    writeFileSync(path.join(folder, 'x2-gone.reply'), 'a reply nobody fetched');
    server.close();
    assert.deepEqual(readdirSync(folder).sort(), ['.engram-mailbox', 'keep-me.txt']);
    const again = openMailbox(folder, notHandled, quietLog);
    again.close();
    assert.equal(readFileSync(path.join(folder, 'keep-me.txt'), 'utf8'), 'not a mailbox file');
  });

  it('is refused when the folder above it can be written by others (it could be swapped)', { skip: process.platform === 'win32' }, () => {
    const shared = tempDir();
    chmodSync(shared, 0o777);
    const folder = path.join(shared, 'engram-w5');
    mkdirSync(folder, { mode: 0o700 });
    chmodSync(folder, 0o700);
    assert.match(problemOf(folder)!, /can be written by other users \(mode 777\)/);
    assert.throws(() => openMailbox(path.join(shared, 'engram-w6'), notHandled, quietLog), /can be written by other users/);
    assert.equal(existsSync(path.join(shared, 'engram-w6')), false, 'the folder it made is taken away again');
  });

  it('is used through the handle it was opened with: a folder swapped in later gets nothing', { skip: process.platform !== 'linux' }, () => {
    const parent = privateFolder();
    const folder = path.join(parent, 'engram-w7');
    const server = openMailbox(folder, notHandled, quietLog);
    try {
      const mailbox = findMemoryServer(folder);
      assert.ok(mailbox, 'the running server is found');
      renameSync(folder, path.join(parent, 'moved'));
      mkdirSync(folder, { mode: 0o700 });
      writeFileSync(mailbox.entry('r1.request'), '{}');
      assert.deepEqual(readdirSync(folder), [], 'nothing lands in the folder swapped in');
      assert.ok(readdirSync(path.join(parent, 'moved')).includes('r1.request'));
      mailbox.close();
    } finally {
      server.close();
    }
  });

  it('is not used by a caller once it is open to other users, even with its server running', { skip: process.platform === 'win32' }, () => {
    const folder = memoryServerMailbox('w3', path.join(tempDir(), 'engram'));
    const server = openMailbox(folder, notHandled, quietLog);
    try {
      const found = findMemoryServer(folder);
      assert.ok(found, 'found while it is private');
      found.close();
      chmodSync(folder, 0o777);
      assert.equal(findMemoryServer(folder), null);
    } finally {
      server.close();
    }
  });

  it('must be a private folder of this user, not a link nor a file', { skip: process.platform === 'win32' }, () => {
    const folder = path.join(privateFolder(), 'box');
    assert.match(problemOf(folder)!, /ENOENT/);
    mkdirSync(folder, { mode: 0o700 });
    chmodSync(folder, 0o700);
    assert.equal(problemOf(folder), null);
    chmodSync(folder, 0o750);
    assert.match(problemOf(folder)!, /open to other users \(mode 750\)/);
    const link = path.join(privateFolder(), 'link');
    symlinkSync(folder, link);
    assert.match(problemOf(link)!, /is not a folder/);
    const file = path.join(privateFolder(), 'file');
    writeFileSync(file, '');
    assert.match(problemOf(file)!, /is not a folder/);
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
