import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../../server/src/store/database';
import { IngestOffsetStore } from '../../server/src/store/ingestOffsetStore';
import { openTranscriptReading, readTranscriptUpdates } from '../../server/src/transcripts/followTranscript';
import { readNewLines, type CompleteLine, type ReadLinesOptions } from '../../server/src/transcripts/lineReader';
import { claudeConfigDir, encodeProjectFolder, projectsDir } from '../../server/src/transcripts/projectFolder';
import { parseRecord, type TranscriptRecord } from '../../server/src/transcripts/records';
import { findTranscripts } from '../../server/src/transcripts/transcriptFiles';
import { platformPaths } from '../../server/src/paths/platformPaths';
import { tempDir } from '../support/tempDirs';

const windows = platformPaths('win32');
const mac = platformPaths('darwin');
const linux = platformPaths('linux');

const SAMPLES = path.resolve(__dirname, '../../../shared/data/claude-code');
const WRITE_EDIT = path.join(SAMPLES, 'write-edit-session.jsonl');
const AUTOCOMPACT = path.join(SAMPLES, 'autocompact-session.jsonl');

function sampleLines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');
}

async function readAll(file: string, from: number, options?: ReadLinesOptions) {
  const batch = await readNewLines(file, from, options);
  const lines: CompleteLine[] = [];
  for await (const line of batch.lines) lines.push(line);
  return { lines, texts: lines.map((l) => l.text), nextOffset: batch.nextOffset, partialTail: batch.partialTail, oversizedLines: batch.oversizedLines };
}

/** Java's String.hashCode computed with exact integer arithmetic, independently of the code under test. */
function referenceJavaHash(text: string): bigint {
  let h = 0n;
  for (let i = 0; i < text.length; i++) h = (h * 31n + BigInt(text.charCodeAt(i))) % 2n ** 32n;
  return h >= 2n ** 31n ? h - 2n ** 32n : h;
}

describe('the Claude Code project folder of a cwd', () => {
  it('replaces every character that is not an ASCII letter or digit with a dash', () => {
    assert.equal(encodeProjectFolder('/home/dev/project'), '-home-dev-project');
    assert.equal(encodeProjectFolder('/srv/my_app.v2'), '-srv-my-app-v2');
  });

  it('replaces non-ASCII characters and spaces per UTF-16 code unit', () => {
    // 'é' is one code unit, '日本' two, and the emoji is a surrogate pair: two dashes.
    assert.equal(encodeProjectFolder('/home/dév/my project/日本/😀x'), ['-home-d-v-my-project', '-', '--', '-', '--', 'x'].join(''));
  });

  it('cuts a name longer than 200 characters and appends the base-36 hash of the original cwd', () => {
    const cwd = `/home/dev/${'très long dossier/'.repeat(14)}end`;
    const sanitized = cwd.replace(/[^A-Za-z0-9]/g, '-');
    assert.ok(sanitized.length > 200);
    const hash = referenceJavaHash(cwd);
    const expected = `${sanitized.slice(0, 200)}-${(hash < 0n ? -hash : hash).toString(36)}`;
    assert.equal(encodeProjectFolder(cwd), expected);
  });

  it('keeps two long paths with the same first 200 characters apart', () => {
    const stem = `/${'x'.repeat(210)}`;
    assert.notEqual(encodeProjectFolder(`${stem}/a`), encodeProjectFolder(`${stem}/b`));
    assert.equal(encodeProjectFolder(`${stem}/a`).slice(0, 200), encodeProjectFolder(`${stem}/b`).slice(0, 200));
  });

  it('names a Windows project path the way Claude Code does: drive colon and backslashes become dashes', () => {
    assert.equal(encodeProjectFolder('C:\\Users\\Me\\My Repo'), 'C--Users-Me-My-Repo');
    assert.equal(encodeProjectFolder('c:\\Users\\Me\\My Repo'), 'c--Users-Me-My-Repo', 'the case as spelled: VS Code says c:');
    assert.equal(encodeProjectFolder('\\\\server\\share\\repo'), '--server-share-repo');
  });

  it('replaces the non-ASCII characters of a Windows path per UTF-16 code unit', () => {
    // 'ë' is one code unit, 'Проекты' seven.
    assert.equal(encodeProjectFolder('C:\\Users\\Zoë\\Проекты\\app'), `C--Users-Zo${'-'.repeat(10)}app`);
  });

  it('cuts a long Windows path at 200 characters and appends the hash of the path as spelled', () => {
    const cwd = `C:\\Users\\Me\\${'Visual Studio Projects\\'.repeat(10)}app`;
    const hash = referenceJavaHash(cwd);
    const name = encodeProjectFolder(cwd);
    assert.equal(name, `${cwd.replace(/[^A-Za-z0-9]/g, '-').slice(0, 200)}-${(hash < 0n ? -hash : hash).toString(36)}`);
    assert.ok(name.startsWith('C--Users-Me-Visual-Studio-Projects-'));
  });

  it('finds the config folder in CLAUDE_CONFIG_DIR, else in ~/.claude', () => {
    assert.equal(claudeConfigDir({ CLAUDE_CONFIG_DIR: '/tmp/cc', HOME: '/home/u' }), '/tmp/cc');
    assert.equal(claudeConfigDir({ HOME: '/home/u' }), path.join('/home/u', '.claude'));
    assert.equal(projectsDir({ HOME: '/home/u' }), path.join('/home/u', '.claude', 'projects'));
  });

  it('finds the config folder in the user profile on Windows (as Claude Code does, through os.homedir()), in HOME elsewhere', () => {
    assert.equal(claudeConfigDir({ USERPROFILE: 'C:\\Users\\Me', HOME: '/c/msys/home/me' }, windows), 'C:\\Users\\Me\\.claude');
    assert.equal(projectsDir({ USERPROFILE: 'C:\\Users\\Me' }, windows), 'C:\\Users\\Me\\.claude\\projects');
    assert.equal(claudeConfigDir({ CLAUDE_CONFIG_DIR: 'D:\\claude', USERPROFILE: 'C:\\Users\\Me' }, windows), 'D:\\claude');
    assert.equal(claudeConfigDir({ HOME: '/Users/me', USERPROFILE: '/elsewhere' }, mac), '/Users/me/.claude');
    assert.equal(claudeConfigDir({ HOME: '/home/me' }, linux), '/home/me/.claude');
  });
});

describe('finding the transcripts of a project', () => {
  const ROOT = '/work/demo/app';

  function writeTranscript(configDir: string, folder: string, file: string, cwd: string | null): string {
    const full = path.join(configDir, 'projects', folder, file);
    mkdirSync(path.dirname(full), { recursive: true });
    const lines = [JSON.stringify({ type: 'queue-operation', operation: 'enqueue' })];
    if (cwd !== null) lines.push(JSON.stringify({ type: 'user', uuid: 'u1', cwd, sessionId: 's', message: { role: 'user', content: 'hi' } }));
    writeFileSync(full, `${lines.join('\n')}\n`);
    return full;
  }

  it('returns sessions and sub-agents run in the project or below it, and nothing else', async () => {
    const configDir = tempDir();
    const env = { CLAUDE_CONFIG_DIR: configDir };
    const own = writeTranscript(configDir, '-work-demo-app', 's1.jsonl', ROOT);
    const agent = writeTranscript(configDir, '-work-demo-app', 's1/subagents/agent-a1.jsonl', ROOT);
    writeFileSync(path.join(configDir, 'projects', '-work-demo-app', 's1', 'subagents', 'notes.txt'), 'not a transcript');
    const starting = writeTranscript(configDir, '-work-demo-app', 's6.jsonl', null);
    const sub = writeTranscript(configDir, '-work-demo-app-server', 's2.jsonl', `${ROOT}/server`);
    const subAgent = writeTranscript(configDir, '-work-demo-app-server', 's2/subagents/agent-b2.jsonl', `${ROOT}/server`);
    writeTranscript(configDir, '-work-demo-app-old', 's3.jsonl', '/work/demo/app-old');
    writeTranscript(configDir, '-work-demo-app', 's5.jsonl', '/work/demo-app');
    writeTranscript(configDir, '-work-demo-other', 's4.jsonl', '/work/demo/other');

    const found = await findTranscripts(ROOT, env);
    const expected = [
      { path: own, sessionId: 's1', kind: 'session' },
      { path: agent, sessionId: 's1', kind: 'subagent' },
      { path: starting, sessionId: 's6', kind: 'session' },
      { path: sub, sessionId: 's2', kind: 'session' },
      { path: subAgent, sessionId: 's2', kind: 'subagent' },
    ];
    assert.deepEqual(found, expected.sort((a, b) => a.path.localeCompare(b.path)));
  });

  it('finds sessions of a subfolder whose folder name was cut and hashed', async () => {
    const configDir = tempDir();
    const deep = `${ROOT}/${'nested/'.repeat(40)}leaf`;
    const file = writeTranscript(configDir, encodeProjectFolder(deep), 'deep.jsonl', deep);
    assert.deepEqual(await findTranscripts(ROOT, { CLAUDE_CONFIG_DIR: configDir }), [{ path: file, sessionId: 'deep', kind: 'session' }]);
  });

  it('on Windows finds the sessions of a project however its path was spelled, and no sibling’s', async () => {
    const configDir = tempDir();
    const env = { CLAUDE_CONFIG_DIR: configDir };
    const fromTerminal = writeTranscript(configDir, 'C--Users-Me-My-Repo', 't1.jsonl', 'C:\\Users\\Me\\My Repo');
    const inSubfolder = writeTranscript(configDir, 'c--users-me-my-repo-server', 't2.jsonl', 'c:\\users\\me\\my repo\\server');
    writeTranscript(configDir, 'C--Users-Me-My-Repo-Old', 't3.jsonl', 'C:\\Users\\Me\\My Repo Old');
    writeTranscript(configDir, 'D--Users-Me-My-Repo', 't4.jsonl', 'D:\\Users\\Me\\My Repo');
    const expected = [
      { path: fromTerminal, sessionId: 't1', kind: 'session' },
      { path: inSubfolder, sessionId: 't2', kind: 'session' },
    ].sort((a, b) => a.path.localeCompare(b.path));
    assert.deepEqual(await findTranscripts('c:\\Users\\Me\\My Repo', env, windows), expected, 'as VS Code spells the folder');
    assert.deepEqual(await findTranscripts('C:/Users/Me/My Repo/', env, windows), expected);
  });

  it('matches a session cwd in another case on macOS, and not on Linux', async () => {
    const configDir = tempDir();
    const env = { CLAUDE_CONFIG_DIR: configDir };
    const file = writeTranscript(configDir, '-users-me-repo', 'm1.jsonl', '/users/me/repo');
    assert.deepEqual(await findTranscripts('/Users/me/Repo', env, mac), [{ path: file, sessionId: 'm1', kind: 'session' }]);
    assert.deepEqual(await findTranscripts('/Users/me/Repo', env, linux), []);
  });

  it('returns nothing when Claude Code never ran', async () => {
    assert.deepEqual(await findTranscripts(ROOT, { CLAUDE_CONFIG_DIR: path.join(tempDir(), 'missing') }), []);
  });
});

describe('reading new lines of a growing file', () => {
  it('holds back a partial last line until its newline arrives', async () => {
    const file = path.join(tempDir(), 't.jsonl');
    writeFileSync(file, 'a\nbb\npar');
    const first = await readAll(file, 0);
    assert.deepEqual(first.texts, ['a', 'bb']);
    assert.equal(first.nextOffset, 5);
    assert.equal(first.partialTail, true);

    appendFileSync(file, 'tial\nnext');
    const second = await readAll(file, first.nextOffset);
    assert.deepEqual(second.lines, [{ text: 'partial', start: 5, end: 13 }]);
    assert.equal(second.partialTail, true);
  });

  it('reads nothing from the end of the file', async () => {
    const file = path.join(tempDir(), 't.jsonl');
    writeFileSync(file, 'a\n');
    assert.deepEqual(await readAll(file, 2), { lines: [], texts: [], nextOffset: 2, partialTail: false, oversizedLines: 0 });
  });

  it('strips the carriage return of CRLF lines but counts its byte', async () => {
    const file = path.join(tempDir(), 't.jsonl');
    writeFileSync(file, 'a\r\nb\r\n');
    const read = await readAll(file, 0);
    assert.deepEqual(read.lines, [{ text: 'a', start: 0, end: 3 }, { text: 'b', start: 3, end: 6 }]);
  });

  it('hands out empty lines as empty text', async () => {
    const file = path.join(tempDir(), 't.jsonl');
    writeFileSync(file, '\n\nx\n');
    assert.deepEqual((await readAll(file, 0)).texts, ['', '', 'x']);
  });

  it('counts offsets in bytes and decodes characters split across read buffers', async () => {
    const file = path.join(tempDir(), 't.jsonl');
    writeFileSync(file, 'héllo wörld\n日本語 😀\n');
    const read = await readAll(file, 0, { bufferBytes: 3 });
    assert.deepEqual(read.texts, ['héllo wörld', '日本語 😀']);
    assert.equal(read.lines[0]?.end, Buffer.byteLength('héllo wörld\n'));
    assert.deepEqual((await readAll(file, read.lines[0]!.end)).texts, ['日本語 😀']);
  });

  it('turns invalid UTF-8 into replacement characters', async () => {
    const file = path.join(tempDir(), 't.jsonl');
    writeFileSync(file, Buffer.from([0x7b, 0xff, 0xe6, 0x0a]));
    assert.deepEqual((await readAll(file, 0)).texts, ['{\uFFFD\uFFFD']);
  });

  it('reads a 50 MB line whole', async () => {
    const file = path.join(tempDir(), 'big.jsonl');
    const payload = 'a'.repeat(50 * 1024 * 1024);
    writeFileSync(file, `{"x":"${payload}"}\n{"y":1}\n`);
    const read = await readAll(file, 0);
    assert.equal(read.lines.length, 2);
    assert.equal(read.lines[0]?.text.length, payload.length + 8);
    assert.equal((JSON.parse(read.lines[0]!.text) as { x: string }).x.length, payload.length);
    assert.deepEqual(read.lines[1], { text: '{"y":1}', start: payload.length + 9, end: payload.length + 17 });
  });

  it('skips and counts a line longer than the limit, and reads on after it', async () => {
    const file = path.join(tempDir(), 't.jsonl');
    writeFileSync(file, `short\n${'z'.repeat(100)}\nafter\n`);
    const read = await readAll(file, 0, { maxLineBytes: 50, bufferBytes: 16 });
    assert.deepEqual(read.texts, ['short', 'after']);
    assert.equal(read.oversizedLines, 1);
    assert.equal(read.nextOffset, 6 + 101 + 6);
  });
});

describe('parsing transcript records', () => {
  function parseAll(file: string) {
    const counts = { record: 0, unknown: 0, malformed: 0 };
    const byType: Record<string, number> = {};
    const records: TranscriptRecord[] = [];
    const unknownTypes = new Set<string>();
    for (const line of sampleLines(file)) {
      const parsed = parseRecord(line);
      counts[parsed.kind]++;
      if (parsed.kind === 'record') {
        records.push(parsed.record);
        byType[parsed.record.type] = (byType[parsed.record.type] ?? 0) + 1;
      } else if (parsed.kind === 'unknown') unknownTypes.add(parsed.type);
    }
    return { counts, byType, records, unknownTypes };
  }

  it('reads every line of the Write+Edit session: prompts, tool results with their rich results, one block per assistant record', () => {
    const { counts, byType, records, unknownTypes } = parseAll(WRITE_EDIT);
    assert.deepEqual(counts, { record: 6, unknown: 31, malformed: 0 });
    assert.deepEqual(byType, { user: 3, assistant: 3 });
    assert.ok(unknownTypes.has('attachment') && unknownTypes.has('system/stop_hook_summary') && unknownTypes.has('queue-operation'));

    const users = records.filter((r) => r.type === 'user');
    assert.equal(users[0]?.message.content, 'SCENARIO:edit write then edit notes.md');
    const results = users.map((u) => u.toolUseResult).filter((r) => r !== undefined);
    assert.deepEqual(results.map((r) => r.kind), ['write', 'edit']);
    const edit = results[1];
    assert.ok(edit?.kind === 'edit');
    assert.equal(edit.filePath, '/home/dev/project/notes.md');
    assert.deepEqual(edit.structuredPatch[0]?.lines, [' # Notes', '-alpha', '+beta']);

    const assistants = records.filter((r) => r.type === 'assistant');
    assert.ok(assistants.every((a) => a.message.content.length === 1));
    assert.deepEqual(assistants.map((a) => a.message.content[0]?.type), ['tool_use', 'tool_use', 'text']);
    assert.ok(records.every((r) => r.uuid && r.sessionId === 'c9458fc6-0d1f-4515-948b-8d428983174a' && r.cwd === '/home/dev/project'));
  });

  it('reads every line of the auto-compacted session, including the boundary and the summary after it', () => {
    const { counts, byType, records } = parseAll(AUTOCOMPACT);
    assert.deepEqual(counts, { record: 13, unknown: 47, malformed: 0 });
    assert.deepEqual(byType, { user: 5, assistant: 7, system: 1 });

    const boundary = records.find((r) => r.type === 'system');
    assert.ok(boundary?.type === 'system');
    assert.equal(boundary.compactMetadata.trigger, 'auto');
    assert.equal(boundary.compactMetadata.preTokens, 75054);

    const summaries = records.filter((r) => r.type === 'user' && r.isCompactSummary);
    assert.equal(summaries.length, 1);
    const summary = summaries[0];
    assert.ok(summary?.type === 'user' && typeof summary.message.content === 'string');
    assert.match(summary.message.content, /^This session is being continued from a previous conversation/);

    const bash = records.flatMap((r) => (r.type === 'user' && r.toolUseResult?.kind === 'bash' ? [r.toolUseResult.stdout] : []));
    assert.deepEqual(bash, ['grow-0', 'grow-1', 'grow-2']);
    // Blocks of one reply are separate records that share the message id.
    const ids = records.flatMap((r) => (r.type === 'assistant' ? [r.message.id] : []));
    assert.equal(new Set(ids).size, 4);
  });

  it('tolerates unknown fields, unknown content blocks and unknown tool results', () => {
    const parsed = parseRecord(
      JSON.stringify({
        type: 'assistant', uuid: 'u', sessionId: 's', timestamp: 't', brandNewField: 1,
        message: { id: 'm', role: 'assistant', content: [{ type: 'hologram', data: 1 }] },
      }),
    );
    assert.ok(parsed.kind === 'record' && parsed.record.type === 'assistant');
    assert.deepEqual(parsed.record.message.content, [{ type: 'other', blockType: 'hologram' }]);
    assert.equal(parsed.record.parentUuid, null);
    assert.equal(parsed.record.isSidechain, false);

    const mcp = parseRecord(JSON.stringify({ type: 'user', uuid: 'u', sessionId: 's', timestamp: 't', message: { role: 'user', content: [] }, toolUseResult: [{ type: 'text', text: 'x' }] }));
    assert.ok(mcp.kind === 'record' && mcp.record.type === 'user');
    assert.equal(mcp.record.toolUseResult?.kind, 'other');
  });

  it('reports unknown types, other system subtypes, non-JSON and records that break the schema', () => {
    assert.deepEqual(parseRecord('{"type":"cost-state","x":1}'), { kind: 'unknown', type: 'cost-state' });
    assert.deepEqual(parseRecord('{"type":"system","subtype":"stop_hook_summary"}'), { kind: 'unknown', type: 'system/stop_hook_summary' });
    assert.equal(parseRecord('garbage').kind, 'malformed');
    assert.equal(parseRecord('[1]').kind, 'malformed');
    assert.equal(parseRecord('{"no":"type"}').kind, 'malformed');
    const broken = parseRecord('{"type":"user","sessionId":"s","timestamp":"t","message":{"role":"user","content":"hi"}}');
    assert.ok(broken.kind === 'malformed');
    assert.match(broken.error, /uuid/);
  });
});

describe('following a transcript', () => {
  function copyOfSample(): string {
    const file = path.join(tempDir(), 'session.jsonl');
    copyFileSync(AUTOCOMPACT, file);
    return file;
  }

  it('reads a whole transcript the first time, then only what is appended, holding back a torn line', async () => {
    const file = copyOfSample();
    const size = readFileSync(file).length;
    const first = await readTranscriptUpdates(file, null);
    assert.equal(first.records.length, 13);
    assert.equal(first.unknown, 47);
    assert.equal(first.malformed, 0);
    assert.equal(first.rescanned, false);
    assert.equal(first.nextState.byteOffset, size);
    assert.ok(first.records.every((r) => typeof r.uuid === 'string'));

    const extra = JSON.stringify({ type: 'user', uuid: 'appended-1', sessionId: 's', timestamp: 't', message: { role: 'user', content: 'more' } });
    appendFileSync(file, `garbage\n${extra.slice(0, 30)}`);
    const second = await readTranscriptUpdates(file, first.nextState);
    assert.deepEqual(second.records, []);
    assert.equal(second.malformed, 1);
    assert.equal(second.malformedExamples[0]?.start, size);
    assert.equal(second.nextState.byteOffset, size + 'garbage\n'.length);
    assert.equal(second.nextState.malformedLines, 1);

    appendFileSync(file, `${extra.slice(30)}\n`);
    const third = await readTranscriptUpdates(file, second.nextState);
    assert.deepEqual(third.records.map((r) => r.uuid), ['appended-1']);
    assert.equal(third.malformed, 0);
    assert.equal(third.nextState.byteOffset, readFileSync(file).length);
    assert.equal(third.nextState.malformedLines, 1);
  });

  it('resumes right after the last line a reader handled when it stopped early, though the file did not change', async () => {
    const file = copyOfSample();
    const reading = (await openTranscriptReading(file, null))!;
    const firstPart: string[] = [];
    let handled = 0;
    let stoppedAt = 0;
    for await (const line of reading.lines) {
      if (line.record) firstPart.push(line.record.uuid);
      stoppedAt = line.end;
      if (++handled === 25) break;
    }
    const state = await reading.stateAt({ at: stoppedAt }, '{"prompt":"carried"}');
    assert.equal(state.byteOffset, stoppedAt);
    assert.equal(state.readerState, '{"prompt":"carried"}');
    const rest = await readTranscriptUpdates(file, state);
    assert.equal(rest.rescanned, false);
    assert.equal(rest.nextState.readerState, '{"prompt":"carried"}');
    const whole = await readTranscriptUpdates(file, null);
    assert.deepEqual([...firstPart, ...rest.records.map((r) => r.uuid)], whole.records.map((r) => r.uuid));
    assert.equal(rest.nextState.byteOffset, whole.nextState.byteOffset);
  });

  it('reads nothing from a file that has not changed', async () => {
    const file = copyOfSample();
    const { nextState } = await readTranscriptUpdates(file, null);
    const again = await readTranscriptUpdates(file, nextState);
    assert.deepEqual(again.records, []);
    assert.equal(again.unknown, 0);
    // The same state, not a new one: nothing past it was read (a 50 ms bound said so before, and could fail at load).
    assert.equal(again.nextState, nextState);
  });

  it('reads a file again from the start when it shrank', async () => {
    const file = copyOfSample();
    const { nextState } = await readTranscriptUpdates(file, null);
    writeFileSync(file, `${sampleLines(WRITE_EDIT).join('\n')}\n`);
    const after = await readTranscriptUpdates(file, nextState);
    assert.equal(after.rescanned, true);
    assert.equal(after.records.length, 6);
    assert.equal(after.nextState.byteOffset, readFileSync(file).length);
  });

  it('reads a file again from the start when it was replaced by a larger one', async () => {
    const file = path.join(tempDir(), 'session.jsonl');
    copyFileSync(WRITE_EDIT, file);
    const { nextState } = await readTranscriptUpdates(file, null);
    writeFileSync(file, `${[...sampleLines(AUTOCOMPACT), ...sampleLines(WRITE_EDIT)].join('\n')}\n`);
    const after = await readTranscriptUpdates(file, nextState);
    assert.equal(after.rescanned, true);
    assert.equal(after.records.length, 19);
  });

  it('notices a replacement of the same size by its head', async () => {
    const file = path.join(tempDir(), 'session.jsonl');
    const line = (uuid: string) => `${JSON.stringify({ type: 'user', uuid, sessionId: 's', timestamp: 't', message: { role: 'user', content: 'x' } })}\n`;
    writeFileSync(file, line('aaaa'));
    const { nextState } = await readTranscriptUpdates(file, null);
    writeFileSync(file, line('bbbb'));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const after = await readTranscriptUpdates(file, nextState);
    assert.equal(after.rescanned, true);
    assert.deepEqual(after.records.map((r) => r.uuid), ['bbbb']);
  });

  it('keeps its place in the database between runs', async () => {
    const { db } = openDatabase(path.join(tempDir(), 'memory.db'));
    const store = new IngestOffsetStore(db);
    const file = copyOfSample();
    assert.equal(store.get(file), null);
    const first = await readTranscriptUpdates(file, store.get(file));
    store.put(first.nextState);
    assert.deepEqual(store.get(file), first.nextState);
    appendFileSync(file, `${JSON.stringify({ type: 'user', uuid: 'later', sessionId: 's', timestamp: 't', message: { role: 'user', content: 'x' } })}\n`);
    const second = await readTranscriptUpdates(file, store.get(file));
    assert.deepEqual(second.records.map((r) => r.uuid), ['later']);
    store.put(second.nextState);
    assert.equal(store.get(file)?.byteOffset, readFileSync(file).length);
    assert.equal(store.delete(file), true);
    assert.equal(store.get(file), null);
    db.close();
  });
});
