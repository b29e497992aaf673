// Proves the Claude Code harness (the real CLI, offline, against the scripted stand-in API) without
// Engram, so a failing Engram test with Claude Code can be told apart from a broken harness — and
// pins the parts of the CLI's behaviour Engram relies on: transcripts and hook context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeProjectFolder } from '../../server/src/transcripts/projectFolder';
import { createClaudeHome, runClaude, type ClaudeRun } from '../support/claude/runClaude';
import { lastUserMessage, messageText, toolResultsInLastUserMessage } from '../support/claude/standInApi';
import { tempDir } from '../support/tempDirs';

// The first run may install the CLI into .cache (~15 s with a warm npm cache).
const FIRST_RUN_TIMEOUT_MS = 300_000;

function assertSucceeded(run: ClaudeRun): { result: string; session_id: string } {
  assert.equal(run.exitCode, 0, `claude exited ${run.exitCode}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`);
  assert.deepEqual(run.unusedRules, [], 'some scripted replies were never asked for');
  return JSON.parse(run.stdout) as { result: string; session_id: string };
}

/** The few transcript fields these tests read; see docs/claude-code-e2e.md for the record types. */
interface TranscriptRecord {
  readonly type: string;
  readonly message?: { readonly content: unknown };
  readonly toolUseResult?: {
    readonly type?: string;
    readonly filePath: string;
    readonly content?: string;
    readonly oldString?: string;
    readonly newString?: string;
    readonly structuredPatch?: readonly { readonly lines: readonly string[] }[];
  };
}

function transcriptRecords(file: string): TranscriptRecord[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as TranscriptRecord);
}

test('a scripted turn writes a file, edits it, and both land in the session transcript', { timeout: FIRST_RUN_TIMEOUT_MS }, async (t) => {
  const workspace = realpathSync(tempDir('engram-claude-ws-'));
  const notes = path.join(workspace, 'notes.txt');

  const run = await runClaude({
    cwd: workspace,
    args: ['-p', 'Create notes.txt, then change beta to gamma.', '--output-format', 'json', '--dangerously-skip-permissions'],
    script: {
      rules: [
        { lastUserIncludes: 'Create notes.txt', reply: { text: 'Creating the file.', toolUses: [{ name: 'Write', input: { file_path: notes, content: 'alpha\nbeta\n' } }] } },
        { afterToolResultOf: 'Write', reply: { toolUses: [{ name: 'Edit', input: { file_path: notes, old_string: 'beta', new_string: 'gamma' } }] } },
        { afterToolResultOf: 'Edit', reply: { text: 'Done: notes.txt now reads alpha, gamma.' } },
      ],
    },
  });
  t.diagnostic(`claude -p with two tool calls: ${run.durationMs} ms, network namespace: ${run.networkIsolated}`);
  const output = assertSucceeded(run);

  assert.equal(output.result, 'Done: notes.txt now reads alpha, gamma.');
  assert.equal(readFileSync(notes, 'utf8'), 'alpha\ngamma\n');

  // One request per model turn; each tool's result comes back in the next one.
  assert.equal(run.modelRequests.length, 3);
  assert.match(messageText(lastUserMessage(run.modelRequests[0]!)!), /Create notes\.txt/);
  assert.deepEqual(toolResultsInLastUserMessage(run.modelRequests[1]!), ['Write']);
  assert.deepEqual(toolResultsInLastUserMessage(run.modelRequests[2]!), ['Edit']);
  assert.ok(run.requests.every((r) => r.method === 'POST' && r.url === '/v1/messages?beta=true'), `unexpected requests: ${run.requests.map((r) => `${r.method} ${r.url}`).join(', ')}`);

  const transcript = path.join(run.configDir, 'projects', encodeProjectFolder(workspace), `${output.session_id}.jsonl`);
  assert.equal(run.transcriptPath, transcript);
  const results = transcriptRecords(transcript).flatMap((r) => (r.type === 'user' && r.toolUseResult ? [r.toolUseResult] : []));
  const write = results.find((r) => r.type === 'create');
  assert.ok(write, 'no Write toolUseResult in the transcript');
  assert.equal(write.filePath, notes);
  assert.equal(write.content, 'alpha\nbeta\n');
  const edit = results.find((r) => r.oldString !== undefined);
  assert.ok(edit, 'no Edit toolUseResult in the transcript');
  assert.equal(edit.filePath, notes);
  assert.equal(edit.newString, 'gamma');
  assert.deepEqual(
    edit.structuredPatch?.flatMap((hunk) => hunk.lines),
    [' alpha', '-beta', '+gamma'],
  );
});

test("a project UserPromptSubmit hook's additionalContext reaches the model", { timeout: FIRST_RUN_TIMEOUT_MS }, async () => {
  const workspace = realpathSync(tempDir('engram-claude-ws-'));
  const hookOutput = { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'MARKER-123' } };
  mkdirSync(path.join(workspace, '.claude'));
  writeFileSync(
    path.join(workspace, '.claude', 'settings.local.json'),
    JSON.stringify({ hooks: { UserPromptSubmit: [{ matcher: '', hooks: [{ type: 'command', command: `echo '${JSON.stringify(hookOutput)}'`, timeout: 10 }] }] } }),
  );

  const run = await runClaude({
    cwd: workspace,
    args: ['-p', 'What do you know about this project?', '--output-format', 'json'],
    script: { rules: [{ anyIncludes: 'MARKER-123', reply: { text: 'The hook told me MARKER-123.' } }], fallback: { text: 'No hook context arrived.' } },
  });
  assert.equal(assertSucceeded(run).result, 'The hook told me MARKER-123.');

  // It arrives in a `role: "system"` message after the prompt, not in the prompt or the system prompt.
  const [request] = run.modelRequests;
  assert.ok(request);
  const carriers = request.messages.filter((m) => messageText(m).includes('UserPromptSubmit hook additional context: MARKER-123'));
  assert.deepEqual(carriers.map((m) => m.role), ['system']);
  assert.doesNotMatch(messageText(lastUserMessage(request)!), /MARKER-123/);
});

test('runs sharing a home continue the same session', { timeout: FIRST_RUN_TIMEOUT_MS }, async () => {
  const workspace = realpathSync(tempDir('engram-claude-ws-'));
  const home = createClaudeHome();

  const first = await runClaude({ home, cwd: workspace, args: ['-p', 'Remember the word PELICAN.', '--output-format', 'json'], script: { rules: [{ reply: { text: 'Noted: PELICAN.' } }] } });
  const second = await runClaude({
    home,
    cwd: workspace,
    args: ['-p', 'Which word?', '--continue', '--output-format', 'json'],
    script: { rules: [{ lastUserIncludes: 'Which word?', anyIncludes: 'Noted: PELICAN.', reply: { text: 'PELICAN.' } }] },
  });

  const firstOutput = assertSucceeded(first);
  assert.equal(assertSucceeded(second).result, 'PELICAN.');
  assert.equal(second.sessionId, firstOutput.session_id);
  assert.deepEqual(second.transcriptPaths, [second.transcriptPath]);
  const prompts = transcriptRecords(second.transcriptPath!).filter((r) => r.type === 'user' && typeof r.message?.content === 'string');
  assert.deepEqual(prompts.map((r) => r.message?.content), ['Remember the word PELICAN.', 'Which word?']);
});
