import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runEngram } from '../support/engramProcess';
import { eventually } from '../support/eventually';
import { dayOf, gitRepo, type GitRepo } from '../support/gitRepo';
import { startLsp, type LspSession } from '../support/lspClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const PARSER_TS = `export function parseExpr(tokens: string[]): number {
  const first = tokens.shift();
  return Number(first);
}

export function peek(tokens: string[]): string | undefined {
  return tokens[0];
}
`;

const ORDERS_PY = `class OrderService:
    def total(self, order):
        return sum(line.price for line in order.lines)

    def cancel(self, order):
        order.delete()
`;

/** A line of `engram export`: a memory with its times as ISO strings. */
interface MemoryRecord {
  readonly kind: string;
  readonly title: string;
  readonly body: string;
  readonly why: string | null;
  readonly source: string;
  readonly sourceRef: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly files: readonly string[];
  readonly symbols: readonly string[];
  readonly meta: Readonly<Record<string, unknown>>;
}

const TOKEN = 'ghp_8Hn2kQ4vX9mL1pR7tY3wZ6cB5dF0gJ2sA4eK';

interface History {
  readonly repo: GitRepo;
  /** Commit ids by what each commit did. */
  readonly sha: Readonly<Record<string, string>>;
}

/**
 * A project whose history holds what the import must handle: edits of functions in TypeScript
 * and Python, a rename with an edit, a bulk commit, a binary file, excluded and .gitignored
 * files, a secret in a message, a merge, and a branch merged in.
 */
function projectWithHistory(): History {
  const repo = gitRepo('engram-history-');
  const sha: Record<string, string> = {};
  repo.write('src/parser.ts', PARSER_TS);
  repo.write('app/orders.py', ORDERS_PY);
  repo.write('.gitignore', 'logs/\n');
  repo.write('build/bundle.js', 'console.log(1);\n');
  sha.create = repo.commit('Start the parser and the order service', { at: dayOf(0) });
  repo.write('src/parser.ts', PARSER_TS.replace('return Number(first);', 'return first === "-" ? -Number(tokens.shift()) : Number(first);'));
  sha.parseExpr = repo.commit('Fix unary minus in parseExpr\n\nA leading minus was read as NaN.', { at: dayOf(1) });
  repo.write('app/orders.py', ORDERS_PY.replace('order.delete()', "order.status = 'cancelled'\n        order.save()"));
  sha.cancel = repo.commit('Cancelling keeps the order, for audits', { at: dayOf(2) });
  repo.move('src/parser.ts', 'src/syntax/parser.ts');
  repo.write('src/syntax/parser.ts', readFileSync(path.join(repo.root, 'src/syntax/parser.ts'), 'utf8').replace('return tokens[0];', 'return tokens.at(0);'));
  sha.move = repo.commit('Move the parser under syntax/', { at: dayOf(3) });
  for (let i = 0; i < 25; i++) repo.write(`fixtures/case${i}.txt`, `case ${i}\n`);
  sha.bulk = repo.commit('Vendor the test fixtures', { at: dayOf(4) });
  repo.write('assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
  sha.binary = repo.commit('Add the logo', { at: dayOf(5) });
  repo.write('logs/debug.log', 'debug\n');
  repo.git('add', '-f', 'logs/debug.log');
  sha.ignored = repo.commit('Check in a debug log by mistake', { at: dayOf(6) });
  repo.git('checkout', '--quiet', '-b', 'discounts');
  repo.write('app/orders.py', readFileSync(path.join(repo.root, 'app/orders.py'), 'utf8').replace('return sum(', 'return 0.9 * sum('));
  sha.branch = repo.commit('Ten percent off every order', { at: dayOf(7) });
  repo.git('checkout', '--quiet', 'main');
  repo.git('-c', 'commit.gpgsign=false', 'merge', '--quiet', '--no-ff', '-m', 'Merge the discounts', 'discounts');
  sha.merge = repo.git('rev-parse', 'HEAD');
  repo.write('src/syntax/parser.ts', readFileSync(path.join(repo.root, 'src/syntax/parser.ts'), 'utf8').replace('const first', 'let first'));
  sha.secret = repo.commit(`Rotate the deploy token\n\nThe old one was ${TOKEN} and it leaked.`, { at: dayOf(8) });
  return { repo, sha };
}

async function engram(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  const result = await runEngram(args, { env, cwd });
  assert.equal(result.code, 0, `engram ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

async function memories(env: NodeJS.ProcessEnv, cwd: string): Promise<MemoryRecord[]> {
  return (await engram(['export'], env, cwd))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as MemoryRecord);
}

describe('engram ingest --git: the history as memories', () => {
  it('makes each file a commit changed a diff memory of its declarations, with the message as why, at the author time, once', async () => {
    const { repo, sha } = projectWithHistory();
    const env = isolatedEnv();
    const report = JSON.parse(await engram(['ingest', '--git', '--json'], env, repo.root));
    assert.deepEqual({ commits: report.commits, imported: report.imported, summaries: report.summaries }, { commits: 9, imported: 9, summaries: 1 }, 'nine commits: the merge is left out');
    assert.deepEqual(report.skipped, { excluded: 2, binary: 1 }, 'build/ and the ignored log, and the logo');

    const all = await memories(env, repo.root);
    const byRef = new Map(all.map((m) => [m.sourceRef, m]));
    const edit = byRef.get(`git:${sha.parseExpr}:src/parser.ts`)!;
    assert.deepEqual(
      { title: edit.title, files: edit.files, symbols: edit.symbols, why: edit.why, kind: edit.kind, source: edit.source, createdAt: edit.createdAt, updatedAt: edit.updatedAt },
      {
        title: 'Edited parseExpr (+1 \u22121) in src/parser.ts',
        files: ['src/syntax/parser.ts'],
        symbols: ['parseExpr'],
        why: 'Fix unary minus in parseExpr\n\nA leading minus was read as NaN.',
        kind: 'diff',
        source: 'git',
        createdAt: dayOf(1).toISOString(),
        updatedAt: dayOf(1).toISOString(),
      },
    );
    assert.match(edit.body, /^-  return Number\(first\);\n\+  return first === "-"/m);
    assert.equal((edit.meta as { commit: string }).commit, sha.parseExpr);
    assert.equal((edit.meta as { author: string }).author, 'Test Author');

    assert.deepEqual(byRef.get(`git:${sha.cancel}:app/orders.py`)!.symbols, ['OrderService.cancel']);
    assert.deepEqual(byRef.get(`git:${sha.branch}:app/orders.py`)!.symbols, ['OrderService.total'], 'a commit merged in from a branch');
    assert.equal(byRef.get(`git:${sha.create}:src/parser.ts`)!.title, 'Created parseExpr, peek in src/parser.ts (+8)');
    const moved = byRef.get(`git:${sha.move}:src/syntax/parser.ts`)!;
    assert.equal(moved.title, 'Edited peek (+1 \u22121) in src/syntax/parser.ts (moved from src/parser.ts)', 'followed by rename detection, not a delete and a create');
    const bulk = byRef.get(`git:${sha.bulk}`)!;
    assert.deepEqual({ kind: bulk.kind, title: bulk.title, files: bulk.files.length }, { kind: 'summary', title: '25 files changed in one commit: Vendor the test fixtures', files: 25 });
    const secret = byRef.get(`git:${sha.secret}:src/syntax/parser.ts`)!;
    assert.match(secret.why!, /The old one was \[REDACTED:github-pat\] and it leaked\./);
    assert.ok(!JSON.stringify(all).includes(TOKEN), 'the token is stored nowhere');
    assert.equal(all.filter((m) => m.sourceRef?.includes(sha.binary!) || m.sourceRef?.includes(sha.ignored!) || m.sourceRef?.includes(sha.merge!)).length, 0);
    assert.equal(all.length, 9, 'two created files, five edits, the bulk summary and the branch commit');

    const recalled = JSON.parse(await engram(['recall', '--file', 'src/syntax/parser.ts', '--line', '2', '--json'], env, repo.root));
    assert.equal(recalled.symbol, 'parseExpr');
    const aboutParseExpr = (recalled.results as MemoryRecord[]).filter((m) => m.symbols.includes('parseExpr')).map((m) => m.why!.split('\n')[0]);
    assert.deepEqual(aboutParseExpr.slice(0, 3), ['Rotate the deploy token', 'Fix unary minus in parseExpr', 'Start the parser and the order service'], 'newest first');

    const again = JSON.parse(await engram(['ingest', '--git', '--json'], env, repo.root));
    assert.deepEqual({ imported: again.imported, memories: again.memories }, { imported: 0, memories: 0 });
    assert.equal((await memories(env, repo.root)).length, 9);
  });

  it('goes back only as far as --max or --since say, and brings in older commits when asked later', async () => {
    const repo = gitRepo();
    const shas = [0, 1, 2, 3, 4].map((n) => {
      repo.write('notes.md', `# Notes\n\n${'line\n'.repeat(n)}`);
      return repo.commit(`Note ${n}`);
    });
    const env = isolatedEnv();
    const newest = JSON.parse(await engram(['ingest', '--git', '--max', '2', '--json'], env, repo.root));
    assert.deepEqual({ imported: newest.imported, memories: newest.memories }, { imported: 2, memories: 2 });
    const plain = JSON.parse(await engram(['ingest', '--git', '--json'], env, repo.root));
    assert.equal(plain.imported, 0, 'what --max left out stays out of later runs');
    const since = JSON.parse(await engram(['ingest', '--git', '--since', shas[1]!, '--json'], env, repo.root));
    assert.deepEqual({ imported: since.imported, alreadyImported: since.alreadyImported }, { imported: 1, alreadyImported: 2 });
    const refs = (await memories(env, repo.root)).map((m) => m.sourceRef!.slice(4, 44)).sort();
    assert.deepEqual(refs, [shas[2]!, shas[3]!, shas[4]!].sort());
    const unknown = await runEngram(['ingest', '--git', '--since', 'no-such-tag'], { env, cwd: repo.root });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no-such-tag names no commit/);
  });

  it('says so when the project is not a git repository', async () => {
    const result = await runEngram(['ingest', '--git'], { env: isolatedEnv(), cwd: tempDir('engram-no-git-') });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /is not in a git work tree/);
  });
});

async function openLsp(env: NodeJS.ProcessEnv, root: string, answer: (method: string) => unknown = () => null): Promise<LspSession> {
  const lsp = startLsp(env, { answer });
  await lsp.connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'project' }],
    capabilities: {},
  });
  await lsp.connection.sendNotification('initialized', {});
  return lsp;
}

async function hoverText(lsp: LspSession, uri: string, line: number): Promise<string> {
  const hover = (await lsp.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character: 4 } })) as { contents: { value: string } } | null;
  return hover?.contents.value ?? '';
}

describe('the memory server and the git history', () => {
  it('offers to import the history at the first start, imports it with progress when accepted, and never asks again', async () => {
    const { repo } = projectWithHistory();
    const env = isolatedEnv();
    let lsp = await openLsp(env, repo.root, (method) => (method === 'engram/offerHistory' ? { answer: 'import' } : null));
    try {
      const offer = (await lsp.waitFor('engram/offerHistory')) as { projectRoot: string; commits: number };
      assert.deepEqual(offer, { projectRoot: repo.root, commits: 9 });
      const end = (await lsp.waitFor('engram/historyProgress', (p) => (p as { state: string }).state === 'end', 30_000)) as { cancelled: boolean; done: number; memories: number; error: string | null };
      assert.deepEqual({ cancelled: end.cancelled, done: end.done, memories: end.memories, error: end.error }, { cancelled: false, done: 9, memories: 9, error: null });
      assert.equal((lsp.received.get('engram/historyProgress')![0] as { state: string; commits: number }).commits, 9);
    } finally {
      await lsp.close();
    }
    lsp = await openLsp(env, repo.root, () => ({ answer: 'import' }));
    try {
      await lsp.waitFor('window/logMessage', (p) => /Capture (took a baseline of|checked)/.test((p as { message: string }).message));
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(lsp.received.has('engram/offerHistory'), false);
    } finally {
      await lsp.close();
    }
  });

  it('picks up a new commit and a checkout of another branch, and shows their messages on hover over the function they changed', async () => {
    const { repo } = projectWithHistory();
    repo.git('checkout', '--quiet', '-b', 'faster');
    const parserFile = path.join(repo.root, 'src/syntax/parser.ts');
    const text = readFileSync(parserFile, 'utf8');
    repo.write('src/syntax/parser.ts', text.replace('return tokens.at(0);', 'return tokens[0]; // at() allocates'));
    repo.commit('Index the tokens instead of calling at in peek', { at: dayOf(9) });
    repo.git('checkout', '--quiet', 'main');
    const env = isolatedEnv();
    await engram(['ingest', '--git'], env, repo.root);

    const lsp = await openLsp(env, repo.root);
    try {
      const uri = pathToFileURL(parserFile).href;
      await lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text } });
      assert.match(await hoverText(lsp, uri, 1), /Fix unary minus in parseExpr/, 'the imported history of parseExpr');

      repo.write('src/syntax/parser.ts', text.replace('let first = tokens.shift();', 'let first = tokens.shift() ?? "";'));
      repo.commit('parseExpr reads an empty input as zero', { at: dayOf(10) });
      await eventually('the new commit on hover', async () => ((await hoverText(lsp, uri, 1)).includes('parseExpr reads an empty input as zero') ? true : undefined), { timeoutMs: 15_000, context: lsp.stderr });

      repo.git('checkout', '--quiet', 'faster');
      await eventually('the other branch\'s commit on hover', async () => ((await hoverText(lsp, uri, 6)).includes('Index the tokens instead of calling at in peek') ? true : undefined), { timeoutMs: 15_000, context: () => JSON.stringify(lsp.received.get('window/logMessage')) });
      assert.equal(lsp.received.has('engram/offerHistory'), false, 'history imported by the CLI is followed without asking');
    } finally {
      await lsp.close();
    }
  });
});
