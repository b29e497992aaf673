import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { encodeProjectFolder } from '../../server/src/transcripts/projectFolder';
import { REPO_ROOT, runEngram } from '../support/engramProcess';
import { isolatedEnv, tempDir } from '../support/tempDirs';
import { transcriptRecords } from '../support/transcriptRecords';

const SAMPLES = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'claude-code');
const RECORDED_CWD = '/home/dev/project';

/** A sample transcript as if Claude Code had run in `root`, placed where Claude Code writes it. */
function installTranscript(configDir: string, root: string, sample: string): { file: string; sessionId: string; edits: number; prompts: number; summaries: number } {
  const text = readFileSync(path.join(SAMPLES, sample), 'utf8').split(RECORDED_CWD).join(root);
  const records = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as {
    sessionId?: string; type: string; isCompactSummary?: boolean; message?: { content?: unknown }; toolUseResult?: { filePath?: string };
  });
  const sessionId = records.find((r) => r.sessionId)!.sessionId!;
  const edits = records.filter((r) => typeof r.toolUseResult?.filePath === 'string').length;
  const typed = records.filter((r) => r.type === 'user' && typeof r.message?.content === 'string');
  const summaries = typed.filter((r) => r.isCompactSummary).length;
  const prompts = typed.length - summaries;
  const folder = path.join(configDir, 'projects', encodeProjectFolder(root));
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${sessionId}.jsonl`);
  writeFileSync(file, text);
  return { file, sessionId, edits, prompts, summaries };
}

describe('engram ingest: Claude Code transcripts into memories', () => {
  it('turns every Write and Edit of the sample sessions into a diff memory with its why, once', async () => {
    const root = tempDir('engram-ingest-');
    mkdirSync(path.join(root, '.git'));
    const configDir = tempDir('engram-claude-');
    const env = isolatedEnv({ CLAUDE_CONFIG_DIR: configDir });
    const writeEdit = installTranscript(configDir, root, 'write-edit-session.jsonl');
    const autocompact = installTranscript(configDir, root, 'autocompact-session.jsonl');

    const first = await runEngram(['ingest', '--json'], { env, cwd: root });
    assert.equal(first.code, 0, first.stderr);
    const totals = JSON.parse(first.stdout);
    assert.equal(totals.files, 2);
    const expected = { diff: writeEdit.edits + autocompact.edits, intent: writeEdit.prompts + autocompact.prompts, summary: autocompact.summaries };
    assert.deepEqual(expected, { diff: 2, intent: 2, summary: 1 }, 'the samples hold two edits, two prompts and one compaction');
    assert.equal(totals.memories, expected.diff + expected.intent + expected.summary);
    assert.equal(totals.malformed, 0);
    const byKind = JSON.parse((await runEngram(['stats', '--json'], { env, cwd: root })).stdout).byKind as Record<string, number>;
    assert.deepEqual({ diff: byKind.diff, intent: byKind.intent, summary: byKind.summary }, expected);

    const recalled = JSON.parse((await runEngram(['recall', '--file', 'notes.md', '--json'], { env, cwd: root })).stdout).results as {
      title: string; source: string; why: string; sessionId: string; body: string;
    }[];
    const titles = recalled.map((m) => m.title).sort();
    assert.deepEqual(titles, ['Created notes.md (+2)', 'Edited notes.md (+1 \u22121)']);
    for (const memory of recalled) {
      assert.equal(memory.source, 'claude');
      assert.equal(memory.sessionId, writeEdit.sessionId);
      assert.match(memory.why, /asked: "SCENARIO:edit write then edit notes\.md"/i);
    }
    assert.match(recalled.find((m) => m.title.startsWith('Edited'))!.body, /-alpha\n\+beta/);

    const again = JSON.parse((await runEngram(['ingest', '--json'], { env, cwd: root })).stdout);
    assert.deepEqual({ records: again.records, memories: again.memories }, { records: 0, memories: 0 });
    const stats = JSON.parse((await runEngram(['stats', '--json'], { env, cwd: root })).stdout);
    assert.equal(stats.total, totals.memories);
    assert.equal(stats.sessions, 2);
  });

  it('keeps the good records of a damaged transcript, counts the bad lines, and waits for a torn one', async () => {
    const root = tempDir('engram-ingest-bad-');
    mkdirSync(path.join(root, '.git'));
    const configDir = tempDir('engram-claude-');
    const env = isolatedEnv({ CLAUDE_CONFIG_DIR: configDir });
    const { file } = installTranscript(configDir, root, 'write-edit-session.jsonl');
    appendFileSync(file, 'this is not json\n{"type":"user","broken":\n' + `{"type":"mystery","payload":"${'x'.repeat(2 * 1024 * 1024)}"}\n` + '{"type":"user","uuid":"torn');
    const result = await runEngram(['ingest', '--json'], { env, cwd: root });
    assert.equal(result.code, 0, result.stderr);
    const totals = JSON.parse(result.stdout);
    assert.equal(totals.memories, 3, 'two edits and the prompt');
    assert.equal(totals.malformed, 2);
    assert.match(result.stderr, /skipped 2 malformed lines/);
    appendFileSync(file, '-rest"}\n');
    const next = JSON.parse((await runEngram(['ingest', '--json'], { env, cwd: root })).stdout);
    assert.equal(next.malformed, 1, 'the completed torn line is read once, and is malformed');
    assert.equal(next.memories, 0);
    const doctor = await runEngram(['doctor'], { env, cwd: root });
    assert.equal(doctor.code, 0, 'skipped lines are a warning, not a failure');
    assert.match(doctor.stdout, new RegExp(`! transcripts +1 Claude Code transcripts read; 3 malformed lines skipped in ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(3\\)`));
  });

  it('extracts prompts, stated rules, decisions, gotchas and compaction summaries, and keeps a turn\'s why across runs', async () => {
    const root = tempDir('engram-extract-');
    mkdirSync(path.join(root, '.git'));
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'db.ts'), 'export const pool = 1;\n');
    const configDir = tempDir('engram-claude-');
    const env = isolatedEnv({ CLAUDE_CONFIG_DIR: configDir });
    const folder = path.join(configDir, 'projects', encodeProjectFolder(root));
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, 'sess-x.jsonl');
    const { line, prompt, said, call, result } = transcriptRecords('sess-x', root);

    appendFileSync(file, [
      prompt('Fix the flaky pool test in src/db.ts. Never open a second connection pool in tests; always reuse `pool` from src/db.ts.'),
      said('I went with a single shared pool because two pools fight over the same SQLite lock.'),
      call('tu-1', 'Bash', { command: 'npm test' }),
      result('tu-1', 'Exit code 1\nError: SQLITE_BUSY: database is locked\n    at open (src/db.ts:1)', true),
    ].join(''));
    const first = await runEngram(['ingest', '--json'], { env, cwd: root });
    assert.equal(first.code, 0, first.stderr);

    // The edit and the passing run arrive in a later read, by another process: the turn's why and the open failure carry over.
    appendFileSync(file, [
      call('tu-2', 'Edit', { file_path: path.join(root, 'src', 'db.ts'), old_string: '1', new_string: '2' }),
      result('tu-2', 'The file has been updated.', false, { filePath: path.join(root, 'src', 'db.ts'), oldString: '1', newString: '2', originalFile: 'export const pool = 1;\n', structuredPatch: [], replaceAll: false, userModified: false }),
      call('tu-3', 'Bash', { command: 'npm test -- --runInBand' }),
      result('tu-3', 'ok'),
      line({ type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'manual', preTokens: 120000, postTokens: 3000 } }),
      line({ type: 'user', isCompactSummary: true, message: { role: 'user', content: 'This session is being continued from a previous conversation.\n\nSummary:\nThe pool test in src/db.ts was fixed by sharing one pool.\n\nIf you need specific details from before compaction, read the transcript.' } }),
    ].join(''));
    const second = await runEngram(['ingest', '--json'], { env, cwd: root });
    assert.equal(second.code, 0, second.stderr);

    const all = JSON.parse((await runEngram(['recall', '--file', 'src/db.ts', '--limit', '50', '--json'], { env, cwd: root })).stdout).results as {
      kind: string; title: string; body: string; why: string | null; pin: string; files: string[]; meta: Record<string, unknown>;
    }[];
    const byKind = (kind: string) => all.filter((m) => m.kind === kind);
    assert.equal(byKind('intent').length, 1);
    assert.match(byKind('intent')[0]!.title, /^Asked: Fix the flaky pool test/);
    assert.deepEqual(byKind('intent')[0]!.files, ['src/db.ts']);

    const rules = byKind('constraint').map((m) => m.body).sort();
    // A semicolon separates two rules; both are tied to the file the prompt names.
    assert.deepEqual(rules, ['Never open a second connection pool in tests', 'always reuse `pool` from src/db.ts.']);
    for (const rule of byKind('constraint')) {
      assert.equal(rule.pin, 'none', 'a candidate until someone pins it');
      assert.equal(rule.meta.candidate, true);
      assert.deepEqual(rule.files, ['src/db.ts']);
    }

    assert.equal(byKind('decision').length, 1);
    assert.match(byKind('decision')[0]!.body, /single shared pool because two pools fight/);

    const gotchas = byKind('gotcha');
    assert.equal(gotchas.length, 1);
    assert.equal(gotchas[0]!.title, 'npm test failed with "Error: SQLITE_BUSY: database is locked"; fixed by editing src/db.ts');
    assert.match(gotchas[0]!.body, /exit code 1/);

    const diff = byKind('diff')[0]!;
    assert.equal(diff.why, 'I went with a single shared pool because two pools fight over the same SQLite lock. (asked: "Fix the flaky pool test in src/db.ts. Never open a second connection pool in tests; always reuse `pool` from src/db.ts.")');

    const summary = byKind('summary')[0]!;
    assert.match(summary.title, /^Context compacted \(manual, 120k → 3k tokens\): The pool test/);
    assert.equal(summary.body, 'The pool test in src/db.ts was fixed by sharing one pool.');
    assert.deepEqual((summary.meta.compaction as { boundaryUuid: string }).boundaryUuid, 'r-9');

    const again = JSON.parse((await runEngram(['ingest', '--json'], { env, cwd: root })).stdout);
    assert.equal(again.memories, 0);
  });

  it("imports Claude Code's memory files as facts and keeps them in sync", async () => {
    const root = tempDir('engram-facts-');
    mkdirSync(path.join(root, '.git'));
    const configDir = tempDir('engram-claude-');
    const env = isolatedEnv({ CLAUDE_CONFIG_DIR: configDir });
    const memoryDir = path.join(configDir, 'projects', encodeProjectFolder(root), 'memory');
    mkdirSync(memoryDir, { recursive: true });
    writeFileSync(path.join(memoryDir, 'MEMORY.md'), '- [Real DB in tests](real-db.md)\n');
    writeFileSync(path.join(memoryDir, 'real-db.md'), '---\nname: real-db\ndescription: Integration tests hit a real database\nmetadata:\n  type: feedback\n---\nIntegration tests must hit a real database, not mocks.\n');
    writeFileSync(path.join(memoryDir, 'broken.md'), '---\nname: [unclosed\n---\nPlain text survives bad front matter.\n');
    const facts = async () =>
      (JSON.parse((await runEngram(['recall', '--query', 'database OR front', '--json'], { env, cwd: root })).stdout).results as { kind: string; title: string; body: string; status: string; meta: { claudeMemory: { type: string | null } } }[]).filter((m) => m.kind === 'fact');

    const first = JSON.parse((await runEngram(['ingest', '--json'], { env, cwd: root })).stdout);
    assert.deepEqual(first.memoryFiles, { added: 2, updated: 0, removed: 0 });
    const real = (await facts()).find((f) => f.title === 'Integration tests hit a real database')!;
    assert.equal(real.body, 'Integration tests must hit a real database, not mocks.');
    assert.equal(real.meta.claudeMemory.type, 'feedback');
    assert.ok((await facts()).some((f) => f.body.includes('Plain text survives')));

    assert.deepEqual(JSON.parse((await runEngram(['ingest', '--json'], { env, cwd: root })).stdout).memoryFiles, { added: 0, updated: 0, removed: 0 });
    writeFileSync(path.join(memoryDir, 'real-db.md'), '---\ndescription: Integration tests hit a real database\n---\nIntegration tests must hit a real Postgres database.\n');
    rmSync(path.join(memoryDir, 'broken.md'));
    assert.deepEqual(JSON.parse((await runEngram(['ingest', '--json'], { env, cwd: root })).stdout).memoryFiles, { added: 0, updated: 1, removed: 1 });
    const stats = JSON.parse((await runEngram(['stats', '--json'], { env, cwd: root })).stdout);
    assert.equal(stats.byStatus.forgotten, 1, 'a removed file is forgotten (soft), not deleted');
  });

  it('says which transcript is missing', async () => {
    const result = await runEngram(['ingest', '/nonexistent/session.jsonl'], { env: isolatedEnv(), cwd: tempDir() });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no transcript at \/nonexistent\/session\.jsonl/);
  });
});
