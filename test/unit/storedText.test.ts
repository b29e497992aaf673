import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { RemoteConsole } from 'vscode-languageserver';
import { compileUserPatterns, Redactor } from '../../server/src/secrets/redact';
import { redactHookLogFields } from '../../server/src/hooks/hookLogRedaction';
import { redactConsole } from '../../server/src/lsp/redactedConsole';
import { openDatabase } from '../../server/src/store/database';
import { EditorStateStore } from '../../server/src/store/editorStateStore';
import { IngestOffsetStore } from '../../server/src/store/ingestOffsetStore';
import { SessionStore } from '../../server/src/store/sessionStore';
import { ChangeRecorder } from '../../server/src/capture/recordChange';
import { openProject } from '../../server/src/project';
import { ingestTranscript } from '../../server/src/transcripts/ingestTranscript';
import { newReaderState, parseReaderState } from '../../server/src/transcripts/readerState';
import type { SecretCase } from '../support/secretCorpus';
import { filesUnder, leaksIn } from '../support/storedBytes';
import { transcriptCarrying } from '../support/syntheticTranscript';
import { tempDir } from '../support/tempDirs';

// Every text column and log outside the memories table passes the redactor on its way in.

const TOKEN = `ghp_${'Qw3rTy7uIo9pAs1dFg5hJk2l'}${'Zx8cVb4n'}XyZ1`;
const SECOND_TOKEN = `ghp_${'Mn4bVc8xZl2kJh6gFd0sAp3o'}${'Iu7yTr5e'}WqE9`;
const PASSWORD = 'Hx7mQp2Lw9Rt';

function database() {
  return openDatabase(path.join(tempDir(), 'memory.db')).db;
}

describe('text stored beside the memories', () => {
  it("stores a session's title (its first prompt) redacted", () => {
    const db = database();
    new SessionStore(db).upsert({ id: 's1', agent: 'claude-code', startedAt: 1, endedAt: null, branch: 'main', title: `deploy with ${TOKEN}`, transcriptPath: null });
    assert.deepEqual(db.prepare('SELECT title FROM sessions').all(), [{ title: 'deploy with [REDACTED:github-pat]' }]);
  });

  it("stores a transcript reader's state redacted, as JSON the reader still parses", () => {
    const db = database();
    const state = { ...newReaderState(), prompt: `export DB_PASS=${PASSWORD}`, assistantText: `I'll push with ${TOKEN}` };
    state.pendingTools['toolu_1'] = { name: 'Bash', subject: 'curl', summary: `curl -u admin:${PASSWORD} https://ci`, command: `curl -u admin:${PASSWORD} https://ci`, file: null };
    new IngestOffsetStore(db).put({ path: '/t.jsonl', byteOffset: 10, size: 10, mtimeMs: 1, headHash: 'h', malformedLines: 0, readerState: JSON.stringify(state), updatedAt: 1 });
    const stored = (db.prepare('SELECT reader_state FROM ingest_offsets').get() as { reader_state: string }).reader_state;
    assert.ok(!stored.includes(PASSWORD) && !stored.includes(TOKEN), stored);
    const parsed = parseReaderState(stored);
    assert.equal(parsed.prompt, 'export DB_PASS=[REDACTED:generic-assignment]');
    assert.equal(parsed.pendingTools['toolu_1']!.command, 'curl -u admin:[REDACTED:command-line-password] https://ci');
  });

  it("stores the editor's selection redacted", () => {
    const db = database();
    new EditorStateStore(db).put({ windowId: 'w', activeFile: 'a.ts', line: 1, character: 0, symbol: null, selection: `const token = "${TOKEN}";`, updatedAt: 1 });
    assert.deepEqual(db.prepare('SELECT selection FROM editor_state').all(), [{ selection: 'const token = "[REDACTED:github-pat]";' }]);
  });

  it('keeps a secret out of what is cut from a long prompt: the reader state, the session title, the memory title', async () => {
    const root = tempDir();
    const home = tempDir();
    const project = openProject(root, { ...process.env, ENGRAM_HOME: home });
    try {
      // Cut first, each of these would end in part of a token: too little of it for its rule.
      const prompt = `${'a '.repeat(32)}use ${TOKEN} for the release ${'b '.repeat(940)}and ${SECOND_TOKEN} too`;
      const file = path.join(root, 'session.jsonl');
      writeFileSync(file, transcriptCarrying({ sessionId: 's-long', cwd: root, firstPrompt: prompt, texts: [] }));
      await ingestTranscript(project, new ChangeRecorder(project), { path: file, sessionId: 's-long', kind: 'session' });
      assert.match([...project.store.all()].find((m) => m.kind === 'intent')!.title, /^Asked: (a )+use \[REDACTED:github-pat\] for/);
    } finally {
      project.close();
    }
    const tokens: SecretCase[] = [TOKEN, SECOND_TOKEN].map((secret, i) => ({ id: `token-${i}`, kind: 'github', text: secret, secret }));
    assert.deepEqual(leaksIn(filesUnder(home), tokens), []);
  });
});

describe('logs', () => {
  it("redacts a hook log line's session and detail with the built-in rules and the user's patterns", () => {
    const home = tempDir();
    mkdirSync(home, { recursive: true });
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ redact: { patterns: ['ACME-[0-9]{6}'] } }));
    const fields = redactHookLogFields({ ENGRAM_HOME: home }, { event: 'stop', session: 's1', outcome: 'error', ms: 3, detail: `ENOENT: open '/tmp/${TOKEN}.jsonl' for ACME-123456` });
    assert.deepEqual(fields, { event: 'stop', session: 's1', outcome: 'error', ms: 3, detail: "ENOENT: open '/tmp/[REDACTED:github-pat].jsonl' for [REDACTED:user-pattern]" });
  });

  it("redacts what the memory server writes to its output channel, at every level", () => {
    const written: string[] = [];
    const record = (message: string) => void written.push(message);
    const console = { error: record, warn: record, info: record, log: record, debug: record } as unknown as RemoteConsole;
    redactConsole(console, new Redactor(compileUserPatterns([]).patterns));
    for (const level of ['error', 'warn', 'info', 'log', 'debug'] as const) console[level](`${level}: failed on ${TOKEN}`);
    assert.deepEqual(written, ['error', 'warn', 'info', 'log', 'debug'].map((level) => `${level}: failed on [REDACTED:github-pat]`));
  });
});
