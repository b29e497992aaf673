import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runEngram } from '../support/engramProcess';
import { eventually as waitFor } from '../support/eventually';
import { startLsp, type LspSession } from '../support/lspClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const PARSER_V1 = [
  'export class Parser {',
  '  parseExpr(input: string) {',
  '    return input.trim();',
  '  }',
  '',
  '  peek() {',
  '    return 0;',
  '  }',
  '}',
  '',
].join('\n');

interface RecalledMemory {
  id: string;
  kind: string;
  title: string;
  body: string;
  source: string;
  symbols: string[];
  files: string[];
  meta: { added: number; removed: number; revisions: unknown[]; change: string };
}

const FileChangeType = { Created: 1, Changed: 2, Deleted: 3 } as const;

describe('capturing changes to the code as diff memories', () => {
  const env = isolatedEnv();
  const root = tempDir('engram-capture-');
  const parserPath = path.join(root, 'src', 'parser.ts');
  const parserUri = pathToFileURL(parserPath).href;
  let lsp: LspSession;
  let version = 1;

  async function diffMemories(file: string): Promise<RecalledMemory[]> {
    const result = await runEngram(['recall', '--file', file, '--json', '--limit', '50'], { env, cwd: root });
    assert.equal(result.code, 0, result.stderr);
    // Recall also brings memories of neighbouring files: keep this file's.
    return (JSON.parse(result.stdout).results as RecalledMemory[]).filter((m) => (m.kind === 'diff' || m.kind === 'summary') && (m.kind === 'summary' || m.files.includes(file)));
  }

  async function saveInEditor(text: string): Promise<void> {
    writeFileSync(parserPath, text);
    await lsp.connection.sendNotification('textDocument/didChange', { textDocument: { uri: parserUri, version: ++version }, contentChanges: [{ text }] });
    await lsp.connection.sendNotification('textDocument/didSave', { textDocument: { uri: parserUri } });
  }

  const eventually = <T>(what: string, probe: () => Promise<T | undefined>) => waitFor(what, probe, { context: () => `server stderr: ${lsp.stderr()}` });

  before(async () => {
    mkdirSync(path.join(root, '.git'));
    mkdirSync(path.join(root, 'src'));
    mkdirSync(path.join(root, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(parserPath, PARSER_V1);
    writeFileSync(path.join(root, 'src', 'util.py'), 'def helper():\n    return 1\n');
    writeFileSync(path.join(root, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    writeFileSync(path.join(root, '.gitignore'), 'generated/\n');
    lsp = startLsp(env);
    await lsp.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(root).href,
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'p' }],
      capabilities: {},
      initializationOptions: { capture: { coalesceMinutes: 10, bulkThreshold: 5 } },
    });
    await lsp.connection.sendNotification('initialized', {});
    await lsp.waitFor('window/logMessage', (p) => /Capture took a baseline of 3 files/.test((p as { message: string }).message));
    await lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: parserUri, languageId: 'typescript', version, text: PARSER_V1 } });
  });

  after(async () => lsp?.close());

  it('records a save as a diff memory tagged with the method it changed', async () => {
    await saveInEditor(PARSER_V1.replace('return input.trim();', 'return input.trim().toLowerCase();'));
    const [memory] = await eventually('a diff memory', async () => {
      const found = await diffMemories('src/parser.ts');
      return found.length ? found : undefined;
    });
    assert.equal(memory!.title, 'Edited Parser.parseExpr (+1 \u22121) in src/parser.ts');
    assert.deepEqual(memory!.symbols, ['Parser.parseExpr']);
    assert.equal(memory!.source, 'editor');
    assert.match(memory!.body, /-    return input\.trim\(\);\n\+    return input\.trim\(\)\.toLowerCase\(\);/);
  });

  it('folds a second save of the same method into the same memory, keeping the first as a revision', async () => {
    await saveInEditor(PARSER_V1.replace('return input.trim();', 'return input.trim().toUpperCase();'));
    const memories = await eventually('the coalesced memory', async () => {
      const found = await diffMemories('src/parser.ts');
      return found.length === 1 && found[0]!.meta.revisions.length === 1 ? found : undefined;
    });
    assert.equal(memories[0]!.meta.added, 2);
    assert.equal(memories[0]!.title, 'Edited Parser.parseExpr (+2 \u22122) in src/parser.ts');
  });

  it('records a change made on disk by another program, with the symbols it touched', async () => {
    writeFileSync(path.join(root, 'src', 'util.py'), 'def helper():\n    return 2\n');
    await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(path.join(root, 'src', 'util.py')).href, type: FileChangeType.Changed }] });
    const [memory] = await eventually('a disk diff memory', async () => {
      const found = await diffMemories('src/util.py');
      return found.length ? found : undefined;
    });
    assert.equal(memory!.source, 'disk');
    assert.deepEqual(memory!.symbols, ['helper']);
    assert.equal(memory!.title, 'Edited helper (+1 \u22121) in src/util.py');
  });

  it('records created and deleted files', async () => {
    const created = path.join(root, 'src', 'fresh.ts');
    writeFileSync(created, 'export function greet(name: string) {\n  return `hi ${name}`;\n}\n');
    await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(created).href, type: FileChangeType.Created }] });
    const [creation] = await eventually('a creation memory', async () => {
      const found = await diffMemories('src/fresh.ts');
      return found.length ? found : undefined;
    });
    assert.equal(creation!.title, 'Created greet in src/fresh.ts (+3)');
    rmSync(created);
    await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(created).href, type: FileChangeType.Deleted }] });
    const deletion = await eventually('a deletion memory', async () => (await diffMemories('src/fresh.ts')).find((m) => m.meta.change === 'deleted'));
    assert.equal(deletion.title, 'Deleted greet in src/fresh.ts (\u22123)');
  });

  it('ignores excluded, gitignored, binary and oversized files', async () => {
    const files = {
      'node_modules/dep/index.js': 'module.exports = 2;\n',
      'generated/out.ts': 'export const x = 1;\n',
      '.env': 'API_KEY=abc\n',
      'src/image.ts': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      'src/huge.ts': 'x'.repeat(2 * 1024 * 1024),
    };
    const changes = Object.entries(files).map(([relative, content]) => {
      const file = path.join(root, relative);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
      return { uri: pathToFileURL(file).href, type: FileChangeType.Created };
    });
    await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', { changes });
    // A marker change after them: once it is recorded, the excluded ones were processed too.
    writeFileSync(path.join(root, 'src', 'util.py'), 'def helper():\n    return 3\n');
    await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(path.join(root, 'src', 'util.py')).href, type: FileChangeType.Changed }] });
    await eventually('the marker change', async () => ((await diffMemories('src/util.py'))[0]?.meta.revisions.length === 1 ? true : undefined));
    for (const relative of Object.keys(files)) assert.deepEqual(await diffMemories(relative), [], relative);
  });

  it('turns a burst of changes on disk (a checkout) into one summary memory', async () => {
    const changes = [];
    for (let i = 0; i < 8; i++) {
      const file = path.join(root, 'src', `bulk${i}.ts`);
      writeFileSync(file, `export const n${i} = ${i};\n`);
      changes.push({ uri: pathToFileURL(file).href, type: FileChangeType.Created });
    }
    await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', { changes });
    const summary = await eventually('a bulk summary', async () => (await diffMemories('src/bulk3.ts')).find((m) => m.kind === 'summary'));
    assert.equal(summary.title, '8 files changed on disk at once (checkout, pull or mass edit)');
    assert.equal(summary.files.length, 8);
    assert.equal((await diffMemories('src/bulk3.ts')).filter((m) => m.kind === 'diff').length, 0);
  });
});

describe('changes made while VS Code was closed', () => {
  it('are not made of a first start\'s files when the editor opens one at once: every file is a baseline', async () => {
    const env = isolatedEnv();
    const root = tempDir('engram-first-open-');
    mkdirSync(path.join(root, '.git'));
    writeFileSync(path.join(root, 'app.py'), 'class App:\n    def run(self):\n        return 1\n');
    writeFileSync(path.join(root, 'util.py'), 'def helper():\n    return 1\n');
    const lsp = startLsp(env);
    try {
      await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'p' }], capabilities: {} });
      await lsp.connection.sendNotification('initialized', {});
      // As VS Code opens the editors it restores, before the start-up scan of the disk has run.
      const app = pathToFileURL(path.join(root, 'app.py')).href;
      await lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: app, languageId: 'python', version: 1, text: 'class App:\n    def run(self):\n        return 1\n' } });
      await lsp.waitFor('window/logMessage', (p) => /Capture took a baseline of 2 files/.test((p as { message: string }).message));
      const stats = await runEngram(['stats', '--json'], { env, cwd: root });
      assert.equal(JSON.parse(stats.stdout).total, 0, 'no file of a first start is a change');
    } finally {
      await lsp.close();
    }
  });

  it('are diffed against the last known content at the next start', async () => {
    const env = isolatedEnv();
    const root = tempDir('engram-restart-');
    mkdirSync(path.join(root, '.git'));
    const file = path.join(root, 'app.py');
    writeFileSync(file, 'class App:\n    def run(self):\n        return 1\n');
    const start = async () => {
      const lsp = startLsp(env);
      await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'p' }], capabilities: {} });
      await lsp.connection.sendNotification('initialized', {});
      return lsp;
    };
    const first = await start();
    // The first start takes every capturable file as a baseline, and records nothing.
    await first.waitFor('window/logMessage', (p) => /Capture took a baseline of 1 files/.test((p as { message: string }).message));
    await first.close();
    const before = await runEngram(['stats', '--json'], { env, cwd: root });
    assert.equal(JSON.parse(before.stdout).total, 0);

    writeFileSync(file, 'class App:\n    def run(self):\n        return 2\n');
    writeFileSync(path.join(root, 'new.py'), 'def added():\n    pass\n');
    const second = await start();
    try {
      const deadline = Date.now() + 10_000;
      let titles: string[] = [];
      while (Date.now() < deadline && titles.length < 2) {
        const recalled = await runEngram(['recall', '--json'], { env, cwd: root });
        titles = (JSON.parse(recalled.stdout).results as { title: string }[]).map((m) => m.title).sort();
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.deepEqual(titles, ['Created added in new.py (+2)', 'Edited App.run (+1 \u22121) in app.py']);
    } finally {
      await second.close();
    }
  });
});

describe('renames and secrets in captured files', () => {
  const env = isolatedEnv();
  const root = tempDir('engram-rename-');
  let lsp: LspSession;
  const uri = (relative: string) => pathToFileURL(path.join(root, relative)).href;
  const FAKE_KEY = 'sk_live_' + '51HqLyjWDarjtT1zdp7dcXyZabc123def456ghi789';

  async function recall(file: string): Promise<{ title: string; files: string[]; body: string }[]> {
    const result = await runEngram(['recall', '--file', file, '--json', '--limit', '50'], { env, cwd: root });
    // Recall also brings memories of neighbouring files: keep this file's.
    return (JSON.parse(result.stdout).results as { title: string; files: string[]; body: string }[]).filter((m) => m.files.includes(file));
  }

  const eventually = <T>(what: string, probe: () => Promise<T | undefined>) => waitFor(what, probe, { context: () => `server stderr: ${lsp.stderr()}` });

  before(async () => {
    mkdirSync(path.join(root, '.git'));
    mkdirSync(path.join(root, 'lib'));
    writeFileSync(path.join(root, 'lib', 'billing.ts'), `const stripe = new Stripe("${FAKE_KEY}");\nexport function charge() {\n  return stripe.charge(1);\n}\n`);
    writeFileSync(path.join(root, 'lib', 'moved.py'), 'def moved():\n    return 1\n');
    lsp = startLsp(env);
    await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'p' }], capabilities: {} });
    await lsp.connection.sendNotification('initialized', {});
    await lsp.waitFor('window/logMessage', (p) => /Capture took a baseline of 2 files/.test((p as { message: string }).message));
  });

  after(async () => lsp?.close());

  it('never stores a secret that sits in a captured file, neither in memories nor in the content cache', async () => {
    const file = path.join(root, 'lib', 'billing.ts');
    writeFileSync(file, `const stripe = new Stripe("${FAKE_KEY}");\nexport function charge() {\n  return stripe.charge(2);\n}\n`);
    await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('lib/billing.ts'), type: FileChangeType.Changed }] });
    const [memory] = await eventually('the billing diff', async () => {
      const found = await recall('lib/billing.ts');
      return found.length ? found : undefined;
    });
    assert.equal(memory!.title, 'Edited charge (+1 \u22121) in lib/billing.ts');
    const { databasePathFor } = await import('../../server/src/paths/engramPaths');
    const { readFileSync, existsSync } = await import('node:fs');
    const dbFile = databasePathFor(root, env);
    for (const f of [dbFile, `${dbFile}-wal`]) {
      if (existsSync(f)) assert.equal(readFileSync(f).includes(Buffer.from(FAKE_KEY.slice(8))), false, `${f} holds the key`);
    }
  });

  it('follows a rename done in VS Code: memories are re-tagged with the new path', async () => {
    const { renameSync } = await import('node:fs');
    renameSync(path.join(root, 'lib'), path.join(root, 'src'));
    await lsp.connection.sendNotification('workspace/didRenameFiles', { files: [{ oldUri: uri('lib'), newUri: uri('src') }] });
    const moved = await eventually('the memory under its new path', async () => {
      const found = await recall('src/billing.ts');
      return found.length ? found : undefined;
    });
    assert.deepEqual(moved[0]!.files, ['src/billing.ts']);
    assert.deepEqual(await recall('lib/billing.ts'), []);
  });

  it('treats a delete and a create of the same content on disk as a move, not two changes', async () => {
    const { renameSync } = await import('node:fs');
    renameSync(path.join(root, 'src', 'moved.py'), path.join(root, 'src', 'relocated.py'));
    await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [
        { uri: uri('src/moved.py'), type: FileChangeType.Deleted },
        { uri: uri('src/relocated.py'), type: FileChangeType.Created },
      ],
    });
    await lsp.waitFor('window/logMessage', (p) => /Followed src\/moved\.py → src\/relocated\.py/.test((p as { message: string }).message));
    assert.deepEqual(await recall('src/relocated.py'), []);
    assert.deepEqual(await recall('src/moved.py'), []);
  });

  it('survives a flood of change events (10,000 in a burst) and records one change once', async () => {
    const file = path.join(root, 'src', 'relocated.py');
    writeFileSync(file, 'def moved():\n    return 2\n');
    const sends = [];
    for (let i = 0; i < 10_000; i++) {
      sends.push(lsp.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri('src/relocated.py'), type: FileChangeType.Changed }] }));
    }
    await Promise.all(sends);
    const memories = await eventually('the one diff', async () => {
      const found = await recall('src/relocated.py');
      return found.length ? found : undefined;
    });
    await new Promise((r) => setTimeout(r, 800));
    assert.equal((await recall('src/relocated.py')).length, 1);
    assert.equal(memories[0]!.title, 'Edited moved (+1 \u22121) in src/relocated.py');
    const stats = (await lsp.connection.sendRequest('engram/stats', {})) as { projects: unknown[] };
    assert.equal(stats.projects.length, 1);
  });
});

describe('the user\'s own redaction patterns', () => {
  it('reach every process: set for the server, applied by the CLI and by capture', async () => {
    const env = isolatedEnv();
    const root = tempDir('engram-patterns-');
    mkdirSync(path.join(root, '.git'));
    writeFileSync(path.join(root, 'notes.md'), 'internal ticket\n');
    const lsp = startLsp(env);
    try {
      await lsp.connection.sendRequest('initialize', {
        processId: process.pid,
        rootUri: null,
        workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'p' }],
        capabilities: {},
        initializationOptions: { redact: { patterns: ['ACME-[0-9]{6}', '(unclosed'] } },
      });
      await lsp.connection.sendNotification('initialized', {});
      await lsp.waitFor('window/logMessage', (p) => /Capture took a baseline/.test((p as { message: string }).message));

      const remembered = await runEngram(['remember', '--kind', 'note', 'Customer escalation ACME-123456 is about refunds'], { env, cwd: root });
      assert.equal(remembered.code, 0, remembered.stderr);
      assert.match(remembered.stderr, /\(unclosed/);
      const exported = await runEngram(['export'], { env, cwd: root });
      assert.match(exported.stdout, /Customer escalation \[REDACTED:user-pattern\] is about refunds/);

      writeFileSync(path.join(root, 'notes.md'), 'internal ticket ACME-654321\n');
      await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(path.join(root, 'notes.md')).href, type: 2 }] });
      const deadline = Date.now() + 10_000;
      let body = '';
      while (Date.now() < deadline && !body) {
        const recalled = await runEngram(['recall', '--file', 'notes.md', '--json'], { env, cwd: root });
        body = JSON.parse(recalled.stdout).results[0]?.body ?? '';
        if (!body) await new Promise((r) => setTimeout(r, 150));
      }
      assert.match(body, /\+internal ticket \[REDACTED:user-pattern\]/);
      const { databasePathFor } = await import('../../server/src/paths/engramPaths');
      const { readFileSync, existsSync } = await import('node:fs');
      const dbFile = databasePathFor(root, env);
      for (const f of [dbFile, `${dbFile}-wal`]) {
        if (existsSync(f)) assert.equal(readFileSync(f).includes(Buffer.from('654321')), false, `${f} holds the ticket id`);
      }
    } finally {
      await lsp.close();
    }
  });
});
