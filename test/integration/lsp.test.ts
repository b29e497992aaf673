import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runEngram } from '../support/engramProcess';
import { startLsp, type LspSession } from '../support/lspClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const DB_TS = [
  'import { pool } from "./pool";',
  '',
  'export function query(sql: string, params: unknown[]) {',
  '  return pool.run(sql, params);',
  '}',
  '',
  'export function close() {',
  '  return pool.end();',
  '}',
  '',
].join('\n');

describe('the memory server over JSON-RPC (engram lsp --stdio)', () => {
  const env = isolatedEnv();
  const root = tempDir('engram-lsp-project-');
  const dbUri = pathToFileURL(path.join(root, 'src', 'db.ts')).href;
  let lsp: LspSession;
  let constraintId: string;

  before(async () => {
    mkdirSync(path.join(root, '.git'));
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'db.ts'), DB_TS);
    const added = await runEngram(['remember', '--kind', 'constraint', '--file', 'src/db.ts', '--lines', '3-5', '--pin', 'hard', '--why', 'injection', 'Always pass SQL parameters, never concatenate'], { env, cwd: root });
    assert.equal(added.code, 0, added.stderr);
    constraintId = added.stdout.trim();

    // As the extension starts it with editors shown: a file with its folder is parsed in a process of
    // its own as the server starts; a name without its folder, or of a language without symbols, is left out.
    lsp = startLsp(env, { lspArgs: ['--warm', `${path.join(root, 'src', 'db.ts')},notes.unknown,Rakefile`] });
    const result = (await lsp.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(root).href,
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'project' }],
      capabilities: { workspace: { codeLens: { refreshSupport: true } } },
    })) as { capabilities: Record<string, unknown> };
    assert.equal(result.capabilities.hoverProvider, true);
    assert.ok(result.capabilities.codeLensProvider);
    await lsp.connection.sendNotification('initialized', {});
    await lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: dbUri, languageId: 'typescript', version: 1, text: DB_TS } });
  });

  after(async () => lsp?.close());

  it('reports its health and the memory count in an engram/status notification', async () => {
    const status = (await lsp.waitFor('engram/status')) as { health: string; memoryCount: number; message: string };
    assert.equal(status.health, 'ok');
    assert.equal(status.memoryCount, 1);
    assert.match(status.message, /1 memories/);
  });

  it('shows the constraint on hover over the code it governs, and nothing elsewhere', async () => {
    const hover = (await lsp.connection.sendRequest('textDocument/hover', { textDocument: { uri: dbUri }, position: { line: 3, character: 10 } })) as {
      contents: { kind: string; value: string };
    };
    assert.equal(hover.contents.kind, 'markdown');
    assert.match(hover.contents.value, /hard-pinned constraint/);
    assert.match(hover.contents.value, /Always pass SQL parameters, never concatenate/);
    assert.match(hover.contents.value, /_Why:_ injection/);
    const outside = await lsp.connection.sendRequest('textDocument/hover', { textDocument: { uri: dbUri }, position: { line: 7, character: 4 } });
    assert.equal(outside, null);
  });

  it('puts a CodeLens at the top of the file and above the pinned code', async () => {
    const lenses = (await lsp.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: dbUri } })) as {
      range: { start: { line: number } };
      command: { title: string; command: string; arguments: unknown[] };
    }[];
    assert.deepEqual(
      lenses.map((l) => [l.range.start.line, l.command.title]),
      [
        [0, 'Engram: 1 constraint'],
        [2, '$(pin) hard constraint: Always pass SQL parameters, never concatenate'],
      ],
    );
    assert.equal(lenses[1]!.command.command, 'engram.showMemories');
    assert.deepEqual(lenses[0]!.command.arguments, [dbUri, { of: 'file' }, 'the CodeLens at the top of the file'], 'a lens names what it counts, the panel asks for the memories');
    assert.deepEqual(lenses[1]!.command.arguments, [dbUri, [constraintId], 'the CodeLens above the pinned code']);
  });

  it('answers engram/memories and engram/stats', async () => {
    const memories = (await lsp.connection.sendRequest('engram/memories', { uri: dbUri, ids: [constraintId, 'm_00000000000000000000000000'] })) as { id: string; why: string }[];
    assert.deepEqual(memories.map((m) => [m.id, m.why]), [[constraintId, 'injection']]);
    const stats = (await lsp.connection.sendRequest('engram/stats', {})) as { projects: { root: string; total: number; schemaVersion: number }[]; runtime: { abi: string } };
    assert.equal(stats.projects.length, 1);
    assert.equal(stats.projects[0]!.root, root);
    assert.equal(stats.projects[0]!.total, 1);
    assert.equal(stats.runtime.abi, process.versions.modules);
  });

  it('notices a memory written by another process and asks the client to refresh CodeLenses', async () => {
    const added = await runEngram(['remember', '--kind', 'constraint', '--file', 'src/db.ts', '--lines', '7-9', 'close() must be idempotent'], { env, cwd: root });
    assert.equal(added.code, 0, added.stderr);
    await lsp.waitFor('workspace/codeLens/refresh');
    const status = (await lsp.waitFor('engram/status', (s) => (s as { memoryCount: number }).memoryCount === 2)) as { memoryCount: number };
    assert.equal(status.memoryCount, 2);
    const lenses = (await lsp.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: dbUri } })) as { command: { title: string } }[];
    assert.equal(lenses[0]!.command.title, 'Engram: 2 constraints');
  });

  it('shows on hover, at once, a memory of the symbol that another process just wrote', async () => {
    type HoverResult = { contents: { value: string } } | null;
    const hoverClose = () => lsp.connection.sendRequest('textDocument/hover', { textDocument: { uri: dbUri }, position: { line: 7, character: 4 } }) as Promise<HoverResult>;
    // Asked twice, so the answer is in the server's cache when the other process writes.
    assert.doesNotMatch((await hoverClose())?.contents.value ?? '', /memories of `close`/);
    assert.doesNotMatch((await hoverClose())?.contents.value ?? '', /memories of `close`/);
    const added = await runEngram(['remember', '--kind', 'decision', '--file', 'src/db.ts', '--symbol', 'close', 'close() drains the pool before ending it'], { env, cwd: root });
    assert.equal(added.code, 0, added.stderr);
    const hover = await hoverClose();
    assert.ok(hover, 'the new memory shows without waiting for any poll');
    assert.match(hover.contents.value, /memories of `close`/);
    assert.match(hover.contents.value, /close\\\(\\\) drains the pool before ending it/);
  });

  it('answers bad requests with an error and keeps serving', async () => {
    await assert.rejects(lsp.connection.sendRequest('engram/noSuchMethod', {}), /Unhandled method engram\/noSuchMethod/);
    await assert.rejects(lsp.connection.sendRequest('textDocument/hover', { position: 'nonsense' }));
    const outsideProject = await lsp.connection.sendRequest('textDocument/hover', { textDocument: { uri: 'file:///elsewhere/x.ts' }, position: { line: 0, character: 0 } });
    assert.equal(outsideProject, null);
    const stats = (await lsp.connection.sendRequest('engram/stats', {})) as { projects: unknown[] };
    assert.equal(stats.projects.length, 1);
    assert.equal(lsp.process.exitCode, null);
  });

  it('exits cleanly on shutdown and exit', async () => {
    const exited = new Promise<number | null>((resolve) => lsp.process.once('exit', (code) => resolve(code)));
    await lsp.connection.sendRequest('shutdown');
    await lsp.connection.sendNotification('exit');
    assert.equal(await exited, 0);
  });
});

describe('the memory server with an unusable database', () => {
  it('reports the problem in engram/status with health error instead of dying', async () => {
    const env = isolatedEnv();
    const root = tempDir('engram-lsp-bad-');
    mkdirSync(path.join(root, '.git'));
    const { databasePathFor } = await import('../../server/src/paths/engramPaths');
    const dbFile = databasePathFor(root, env);
    mkdirSync(dbFile, { recursive: true }); // a folder where the database file should be
    const lsp = startLsp(env);
    try {
      await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'p' }], capabilities: {} });
      await lsp.connection.sendNotification('initialized', {});
      const status = (await lsp.waitFor('engram/status')) as { health: string; message: string };
      assert.equal(status.health, 'error');
      assert.ok(status.message.length > 0);
      const hover = await lsp.connection.sendRequest('textDocument/hover', { textDocument: { uri: pathToFileURL(path.join(root, 'a.ts')).href }, position: { line: 0, character: 0 } });
      assert.equal(hover, null);
    } finally {
      await lsp.close();
    }
  });
});
