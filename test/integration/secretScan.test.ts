import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { openDatabase } from '../../server/src/store/database';
import { databasePathFor } from '../../server/src/paths/engramPaths';
import { newMemoryId } from '../../server/src/memory/ids';
import type { AgentSessionSummary } from '../../contracts/viewProtocol';
import { REPO_ROOT, runEngram } from '../support/engramProcess';
import { eventually } from '../support/eventually';
import { startLsp } from '../support/lspClient';
import { startMcp } from '../support/mcpClient';
import { loadSecretSet, OPEN_CASES, scanControl, SECRET_SETS, secretFragments, type SecretCase } from '../support/secretCorpus';
import { filesUnder, leaksIn, type Leak } from '../support/storedBytes';
import { installTranscript, transcriptCarrying } from '../support/syntheticTranscript';
import { isolatedEnv, tempDir } from '../support/tempDirs';

/*
 * Every labeled secret (test/fixtures/secrets/) goes in through a real entry point; then the raw
 * bytes of everything Engram keeps — the database, its WAL, every file under ENGRAM_HOME (logs
 * included) and the export — are searched for each secret and its telling fragments. The only
 * secret allowed to be found is the scan control, a value no rule can know for a secret: finding
 * it proves the scan sees stored text.
 */

const CONTROL = scanControl();
const CASES: readonly SecretCase[] = [...SECRET_SETS.flatMap(loadSecretSet), CONTROL];
const SECRETS = CASES.filter((c) => c.secret !== null);
const LOOK_ALIKES = CASES.filter((c) => c.secret === null);
const TEXTS = CASES.map((c) => c.text);
/** A first prompt whose secret the redactor has long known (a GitHub token): it becomes the session's title. */
const TITLE_CASE = CASES.find((c) => c.id === 'h029')!;

function project(): { root: string; env: NodeJS.ProcessEnv; configDir: string } {
  const root = tempDir('engram-secrets-');
  mkdirSync(path.join(root, '.git'));
  const configDir = tempDir('engram-claude-');
  return { root, env: isolatedEnv({ CLAUDE_CONFIG_DIR: configDir }), configDir };
}

/** What Engram keeps: everything under ENGRAM_HOME (the project's database and WAL, logs) and any extra files. */
function storedLeaks(env: NodeJS.ProcessEnv, extra: readonly string[] = []): Leak[] {
  return leaksIn([...filesUnder(env.ENGRAM_HOME!), ...extra], SECRETS);
}

/**
 * Fragments that other cases put in the store as they should: an open case's secret (round 5
 * reuses one value in many lines) and a look-alike's text (`eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9`,
 * a JWT's header alone). Found, they say nothing of a case that holds them too.
 */
const STORED_BY_OTHERS = [
  ...SECRETS.filter((c) => OPEN_CASES.has(c.id)).flatMap((c) => secretFragments(c.secret!)),
  ...LOOK_ALIKES.map((c) => c.text),
];

/**
 * A value of a few hex digits (`abc13`, round 9's a041) is in a store's random ids and hashes by
 * chance (a five-digit one about once in a million hex digits): its bytes prove nothing either
 * way, and the unit corpus test checks its redaction in the text itself.
 */
const FOUND_BY_CHANCE = (fragment: string) => fragment.length < 8 && /^[0-9a-f]+$/.test(fragment);

/**
 * Engram's own code: a token format's fixed part (PyPI's `AgEIcHlwaS5vcmc`, base64 of "pypi.org")
 * is in a rule, so in the V8 code cache kept under ENGRAM_HOME; a value drawn after it may start
 * with `-` and leave that part a fragment of its own. Found there, it is no secret's.
 */
const DIST = path.join(REPO_ROOT, 'dist');
const OWN_CODE = readdirSync(DIST)
  .filter((name) => name.endsWith('.js'))
  .map((name) => readFileSync(path.join(DIST, name), 'utf8'))
  .join('\n');

function assertOnlyKnownMisses(leaks: readonly Leak[]): void {
  // The latest round's open cases (OPEN_CASES) are known to be stored; every other secret must not be.
  const unexpected = leaks.filter(
    (l) =>
      l.id !== CONTROL.id &&
      !OPEN_CASES.has(l.id) &&
      !STORED_BY_OTHERS.some((stored) => stored.includes(l.fragment)) &&
      !FOUND_BY_CHANCE(l.fragment) &&
      !OWN_CODE.includes(l.fragment),
  );
  assert.deepEqual(unexpected.map((l) => `${l.id} in ${path.basename(l.file)}: ${l.fragment}`), []);
  assert.ok(leaks.some((l) => l.id === CONTROL.id), 'the scan finds the control, a secret no rule knows, so it reads what was stored');
}

/** Texts in chunks a command line and an MCP argument take (16,000 characters at most). */
function chunks(texts: readonly string[], max = 12_000): string[] {
  const out: string[] = [];
  let current = '';
  for (const text of texts) {
    if (current && current.length + text.length > max) {
      out.push(current);
      current = '';
    }
    current += `${text}\n\n`;
  }
  return current ? [...out, current] : out;
}

function sessionTranscript(root: string, sessionId: string): string {
  return transcriptCarrying({ sessionId, cwd: root, firstPrompt: TITLE_CASE.text, texts: TEXTS });
}

describe('no secret is stored, whichever way it comes in', () => {
  it('engram ingest: none in the memories of a Claude Code session, its title, or the reader state kept between reads', async () => {
    const { root, env, configDir } = project();
    installTranscript(configDir, root, 'a1b2c3d4-0000-4000-8000-000000000001', sessionTranscript(root, 'a1b2c3d4-0000-4000-8000-000000000001'));
    const ingested = await runEngram(['ingest', '--json'], { env, cwd: root, timeoutMs: 120_000 });
    assert.equal(ingested.code, 0, ingested.stderr);
    // A quarter of the texts are prompts (transcriptCarrying), and each becomes a memory.
    assert.ok(JSON.parse(ingested.stdout).memories > TEXTS.length / 4, ingested.stdout);
    assertOnlyKnownMisses(storedLeaks(env));
  });

  it('hooks: none from a Stop hook reading the transcript, and none in the hook log from an input the hook could not use', async () => {
    const { root, env, configDir } = project();
    const sessionId = 'a1b2c3d4-0000-4000-8000-000000000002';
    const transcript = installTranscript(configDir, root, sessionId, sessionTranscript(root, sessionId));
    // A hook reads within its time limit and leaves the rest to the next one, as Claude Code's
    // later Stop hooks would read it: run it until its stored read offset is the transcript's end.
    const size = statSync(transcript).size;
    const readToEnd = () => {
      const { db } = openDatabase(databasePathFor(root, env));
      try {
        return (db.prepare('SELECT byte_offset FROM ingest_offsets').all() as { byte_offset: number }[]).some((r) => r.byte_offset >= size);
      } finally {
        db.close();
      }
    };
    // Each run reads ~2 s of it; the cap only stops a hook that makes no progress (the corpus grows each round).
    for (let run = 0; run < 40 && !(existsSync(databasePathFor(root, env)) && readToEnd()); run++) {
      const stop = await runEngram(['hook', 'stop'], { env, cwd: root, stdin: JSON.stringify({ session_id: sessionId, transcript_path: transcript, cwd: root, hook_event_name: 'Stop' }), timeoutMs: 120_000 });
      assert.equal(stop.code, 0, stop.stderr);
    }
    assert.ok(readToEnd(), 'the Stop hooks read the whole transcript');
    const prompt = await runEngram(['hook', 'user-prompt-submit'], { env, cwd: root, stdin: JSON.stringify({ session_id: sessionId, cwd: root, prompt: TEXTS.join('\n') }) });
    assert.equal(prompt.code, 0, prompt.stderr);
    // An error quoting the hook's input (here the transcript's path) goes to the hook log.
    const token = CASES.find((c) => c.id === 'h029')!.secret!;
    const missing = await runEngram(['hook', 'stop'], { env, cwd: root, stdin: JSON.stringify({ session_id: sessionId, transcript_path: path.join(root, `${token}.jsonl`), cwd: root }) });
    assert.equal(missing.code, 0, missing.stderr);
    const log = readFileSync(path.join(env.ENGRAM_HOME!, 'logs', 'hooks.log'), 'utf8');
    assert.match(log, /stop \S+ error .*\[REDACTED:github-pat\]\.jsonl/, 'the failing hook was logged, its input redacted');
    assertOnlyKnownMisses(storedLeaks(env));
  });

  it('engram remember, engram import and engram export: none stored or exported, and every look-alike kept as written', async () => {
    const { root, env } = project();
    // A process a chunk: every fourth chunk is remembered on the command line, the rest imported
    // from one file (each entry point passes every kind of secret; 245 processes took a minute).
    const byCommandLine = chunks(TEXTS).filter((_, i) => i % 4 === 0);
    const byImport = chunks(TEXTS).filter((_, i) => i % 4 !== 0);
    for (const chunk of byCommandLine) {
      const remembered = await runEngram(['remember', '--kind', 'note', '--why', chunk, `Secrets seen in a session\n${chunk}`], { env, cwd: root });
      assert.equal(remembered.code, 0, remembered.stderr);
    }
    const importFile = path.join(tempDir('engram-import-'), 'memories.jsonl');
    const template = { kind: 'note', source: 'user', sessionId: null, importance: 0.5, pin: 'none', status: 'active', files: [], symbols: [], anchor: null, meta: {} };
    const at = new Date().toISOString();
    writeFileSync(importFile, byImport.map((chunk) => `${JSON.stringify({ ...template, id: newMemoryId(), title: 'Secrets seen in a session', body: chunk, why: chunk, createdAt: at, updatedAt: at })}\n`).join(''));
    const imported = await runEngram(['import', importFile, '--json'], { env, cwd: root });
    assert.equal(imported.code, 0, imported.stderr);
    assert.deepEqual(JSON.parse(imported.stdout), { added: byImport.length, updated: 0, unchanged: 0, rejected: 0 });
    const exportFile = path.join(tempDir('engram-export-'), 'memories.jsonl');
    const exported = await runEngram(['export', '--out', exportFile], { env, cwd: root });
    assert.equal(exported.code, 0, exported.stderr);
    assertOnlyKnownMisses(storedLeaks(env, [exportFile]));
    const exportText = readFileSync(exportFile, 'utf8');
    const changed = LOOK_ALIKES.filter((c) => !OPEN_CASES.has(c.id) && !exportText.includes(JSON.stringify(c.text).slice(1, -1)));
    assert.deepEqual(changed.map((c) => c.id), [], 'look-alikes are exported as they were written');
  });

  it('MCP remember: none stored', async () => {
    const { root, env } = project();
    const mcp = await startMcp({ env, project: root });
    try {
      for (const chunk of chunks(TEXTS)) {
        const result = await mcp.call('remember', { kind: 'note', text: `Secrets seen in a session\n${chunk}` });
        assert.equal(result.isError ?? false, false, JSON.stringify(result.content));
      }
    } finally {
      await mcp.close();
    }
    assertOnlyKnownMisses(storedLeaks(env));
  });

  it("the memory server: none from the editor's selection, and the session's title shown without its secret", async () => {
    const { root, env, configDir } = project();
    writeFileSync(path.join(root, 'app.ts'), 'export const answer = 42;\n');
    const sessionId = 'a1b2c3d4-0000-4000-8000-000000000003';
    installTranscript(configDir, root, sessionId, sessionTranscript(root, sessionId));
    const lsp = startLsp(env);
    try {
      await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'app' }], capabilities: {} });
      await lsp.connection.sendNotification('initialized', {});
      await lsp.waitFor('window/logMessage', (p) => /Ingested \d+ memories from/.test((p as { message: string }).message), 120_000);
      const { sessions } = (await lsp.connection.sendRequest('engram/agentSessions', { projectRoot: root })) as { sessions: AgentSessionSummary[] };
      assert.deepEqual(sessions.map((s) => s.title), ['use this token for the release script: [REDACTED:github-pat]']);
      // The client caps a selection at 2,000 characters; the secrets of a few cases fit.
      const selection = chunks(TEXTS, 1500)[0]!;
      await lsp.connection.sendNotification('engram/editorState', { uri: pathToFileURL(path.join(root, 'app.ts')).href, position: { line: 0, character: 0 }, selection });
      // Kept after a pause in the editor's moves, and after whatever the server is doing then.
      const stored = await eventually('the selection to be kept for hooks', async () => {
        const { db } = openDatabase(databasePathFor(root, env));
        try {
          const rows = db.prepare('SELECT selection FROM editor_state').all() as { selection: string }[];
          return rows.length ? rows : undefined;
        } finally {
          db.close();
        }
      }, { timeoutMs: 30_000, intervalMs: 250 });
      assert.equal(stored.length, 1, 'one window, one row');
      assert.match(stored[0]!.selection, /\[REDACTED:/);
    } finally {
      await lsp.close();
    }
    assertOnlyKnownMisses(storedLeaks(env));
  });
});
