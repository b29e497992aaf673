import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { encodeProjectFolder } from '../../server/src/transcripts/projectFolder';
import { REPO_ROOT, runEngram } from '../support/engramProcess';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const SAMPLES = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'claude-code');
const RECORDED_CWD = '/home/dev/project';

/** A sample transcript as if Claude Code had run in `root`, placed where Claude Code writes it. */
function installTranscript(configDir: string, root: string, sample: string): { file: string; sessionId: string; edits: number } {
  const text = readFileSync(path.join(SAMPLES, sample), 'utf8').split(RECORDED_CWD).join(root);
  const records = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { sessionId?: string; toolUseResult?: { filePath?: string } });
  const sessionId = records.find((r) => r.sessionId)!.sessionId!;
  const edits = records.filter((r) => typeof r.toolUseResult?.filePath === 'string').length;
  const folder = path.join(configDir, 'projects', encodeProjectFolder(root));
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${sessionId}.jsonl`);
  writeFileSync(file, text);
  return { file, sessionId, edits };
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
    assert.equal(totals.memories, writeEdit.edits + autocompact.edits);
    assert.equal(totals.malformed, 0);

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
    assert.equal(totals.memories, 2);
    assert.equal(totals.malformed, 2);
    assert.match(result.stderr, /skipped 2 malformed lines/);
    appendFileSync(file, '-rest"}\n');
    const next = JSON.parse((await runEngram(['ingest', '--json'], { env, cwd: root })).stdout);
    assert.equal(next.malformed, 1, 'the completed torn line is read once, and is malformed');
    assert.equal(next.memories, 0);
  });

  it('says which transcript is missing', async () => {
    const result = await runEngram(['ingest', '/nonexistent/session.jsonl'], { env: isolatedEnv(), cwd: tempDir() });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no transcript at \/nonexistent\/session\.jsonl/);
  });
});
