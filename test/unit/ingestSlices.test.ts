import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ChangeRecorder } from '../../server/src/capture/recordChange';
import { openProject, type Project } from '../../server/src/project';
import { ingestTranscript } from '../../server/src/transcripts/ingestTranscript';
import { tempDir } from '../support/tempDirs';

const SESSION = 's-slices';
const FILES = 8;
const LINES = 60;

function line(file: number, n: number, version: number): string {
  return `export function step${file}_${n}(order: Order): number { return order.total * ${version} + ${n}; }`;
}

/** A session of prompts and Edit results over a few TypeScript files, over 1 MB: more than one slice. */
function editSession(root: string): { readonly text: string; readonly files: Map<string, string> } {
  const files = Array.from({ length: FILES }, (_, f) => Array.from({ length: LINES }, (_, n) => line(f, n, 0)));
  const records: string[] = [];
  let time = Date.parse('2026-11-20T09:00:00Z');
  const common = (uuid: string) => ({ uuid, parentUuid: null, sessionId: SESSION, timestamp: new Date((time += 1000)).toISOString(), cwd: root, isSidechain: false });
  for (let round = 0; round < 480; round++) {
    if (round % 3 === 0) records.push(JSON.stringify({ ...common(`prompt-${round}`), type: 'user', message: { role: 'user', content: `Round ${round}: please update step ${round % LINES}` } }));
    const f = round % FILES;
    const at = (round * 7) % LINES;
    const before = `${files[f]!.join('\n')}\n`;
    const oldString = files[f]![at]!;
    const newString = line(f, at, round + 1);
    files[f]![at] = newString;
    const toolUseResult = { filePath: path.join(root, 'src', `m${f}.ts`), oldString, newString, originalFile: before, structuredPatch: [], replaceAll: false, userModified: false };
    records.push(JSON.stringify({ ...common(`result-${round}`), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tu-${round}`, content: 'ok' }] }, toolUseResult }));
  }
  return { text: `${records.join('\n')}\n`, files: new Map(files.map((lines, f) => [`src/m${f}.ts`, `${lines.join('\n')}\n`])) };
}

function sourceRefs(project: Project): string[] {
  return [...project.store.all()].map((m) => m.sourceRef!).sort();
}

/** The sourceRefs the records ending at or before `offset` make. */
function refsUpTo(text: string, offset: number): string[] {
  const refs: string[] = [];
  let end = 0;
  for (const json of text.split('\n').filter(Boolean)) {
    end += Buffer.byteLength(json) + 1;
    if (end > offset) break;
    const record = JSON.parse(json) as { uuid: string; message: { content: unknown } };
    refs.push(typeof record.message.content === 'string' ? `claude:${record.uuid}` : `claude:tool:${(record.message.content as { tool_use_id: string }[])[0]!.tool_use_id}`);
  }
  return refs.sort();
}

describe('transcript slices', () => {
  it('store a slice\'s memories with its read position: a failure while storing one leaves neither, and the next read stores each memory once', async () => {
    const root = path.join(tempDir(), 'p');
    const transcript = path.join(tempDir(), `${SESSION}.jsonl`);
    const { text, files } = editSession(root);
    writeFileSync(transcript, text);
    assert.ok(text.length > 1024 * 1024, 'the transcript is more than one slice');
    const file = { path: transcript, sessionId: SESSION, kind: 'session' as const };

    const project = openProject(root, { ...process.env, ENGRAM_HOME: tempDir() });
    const put = project.ingestOffsets.put.bind(project.ingestOffsets);
    let puts = 0;
    project.ingestOffsets.put = (offset) => {
      // The second slice fails as it stores its read position, after its memories were written.
      if (++puts === 2) throw new Error('disk full');
      put(offset);
    };
    await assert.rejects(ingestTranscript(project, new ChangeRecorder(project), file), /disk full/);
    const saved = project.ingestOffsets.get(transcript)!.byteOffset;
    assert.ok(saved > 0 && saved < text.length, 'the first slice was stored');
    assert.deepEqual(sourceRefs(project), refsUpTo(text, saved), 'exactly the memories of the records before the saved position');

    project.ingestOffsets.put = put;
    const result = await ingestTranscript(project, new ChangeRecorder(project), file);
    assert.equal(result.finished, true);
    assert.equal(project.ingestOffsets.get(transcript)!.byteOffset, Buffer.byteLength(text));
    const refs = sourceRefs(project);
    assert.deepEqual(refs, refsUpTo(text, Infinity), 'every record once, none twice');
    assert.equal(new Set(refs).size, refs.length);
    // Each file's snapshot is its text after the session's last edit of it, so the watcher finds nothing new.
    for (const [name, content] of files) assert.equal(project.snapshots.get(name)?.content, content, name);

    const uninterrupted = openProject(root, { ...process.env, ENGRAM_HOME: tempDir() });
    await ingestTranscript(uninterrupted, new ChangeRecorder(uninterrupted), file);
    const strip = (p: Project) => [...p.store.all()].map(({ id, ...m }) => (void id, m)).sort((a, b) => a.sourceRef!.localeCompare(b.sourceRef!));
    const [a, b] = [strip(project), strip(uninterrupted)];
    assert.equal(a.length, b.length);
    for (let i = 0; i < a.length; i++) assert.deepEqual(a[i], b[i], `memory ${a[i]!.sourceRef}: as in one uninterrupted read`);
    uninterrupted.close();
    project.close();
  });

  it('give an edit seen on disk first the disk memory, and record the slice\'s next edit of that file anew', async () => {
    const root = path.join(tempDir(), 'p');
    const project = openProject(root, { ...process.env, ENGRAM_HOME: tempDir() });
    const recorder = new ChangeRecorder(project);
    const v0 = 'def total(order):\n    return sum(order)\n\n\n\n\ndef tax(x):\n    return x * 0.2\n';
    const v1 = v0.replace('sum(order)', 'round(sum(order), 2)');
    const v2 = v1.replace('0.2', '0.25');
    const at = Date.parse('2026-11-20T09:00:00Z');
    recorder.baseline('orders.py', v0, { size: 1, mtimeMs: 1 });
    assert.equal((await recorder.record('orders.py', v1, 'disk', { size: 2, mtimeMs: 2 }, { now: at - 1000 })).kind, 'recorded');
    const result = (n: number, before: string, after: string, oldString: string, newString: string) =>
      JSON.stringify({
        type: 'user', uuid: `r-${n}`, parentUuid: null, sessionId: SESSION, timestamp: new Date(at + n * 1000).toISOString(), cwd: root, isSidechain: false,
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tu-${n}`, content: 'ok' }] },
        toolUseResult: { filePath: path.join(root, 'orders.py'), oldString, newString, originalFile: before, structuredPatch: [], replaceAll: false, userModified: false },
      });
    const transcript = path.join(tempDir(), `${SESSION}.jsonl`);
    writeFileSync(transcript, `${result(1, v0, v1, 'sum(order)', 'round(sum(order), 2)')}\n${result(2, v1, v2, '0.2', '0.25')}\n`);
    const ingested = await ingestTranscript(project, recorder, { path: transcript, sessionId: SESSION, kind: 'session' });
    assert.equal(ingested.memories, 2);
    const memories = [...project.store.all()];
    assert.deepEqual(memories.map((m) => [m.source, m.sourceRef, m.meta.alsoSeenAs ?? null]), [
      ['claude', 'claude:tool:tu-1', 'disk'],
      ['claude', 'claude:tool:tu-2', null],
    ]);
    assert.equal(project.snapshots.get('orders.py')?.content, v2);
    project.close();
  });

  it('commits the records before a long one first, so that a hook stopped while reading it keeps them', async () => {
    const root = path.join(tempDir(), 'p');
    const transcript = path.join(tempDir(), `${SESSION}-long.jsonl`);
    let time = Date.parse('2026-11-20T09:00:00Z');
    const prompt = (uuid: string, content: string) => JSON.stringify({ uuid, parentUuid: null, sessionId: SESSION, timestamp: new Date((time += 1000)).toISOString(), cwd: root, isSidechain: false, type: 'user', message: { role: 'user', content } });
    const short = [prompt('p-1', 'Keep the retry budget at three attempts'), prompt('p-2', 'Log the order id on every failure')];
    const long = prompt('p-long', `Here is the whole log:\n${'GET /orders 200 12ms\n'.repeat(20_000)}`);
    const text = `${[...short, long].join('\n')}\n`;
    writeFileSync(transcript, text);
    const file = { path: transcript, sessionId: SESSION, kind: 'session' as const };
    const project = openProject(root, { ...process.env, ENGRAM_HOME: tempDir() });
    const put = project.ingestOffsets.put.bind(project.ingestOffsets);
    const saved: number[] = [];
    // The process stops while the long record is read (a hook at its hard limit): here, the next commit fails.
    project.ingestOffsets.put = (offset) => {
      if (saved.length > 0) throw new Error('stopped');
      saved.push(offset.byteOffset);
      put(offset);
    };
    await assert.rejects(ingestTranscript(project, new ChangeRecorder(project), file), /stopped/);
    const before = Buffer.byteLength(`${short.join('\n')}\n`);
    assert.deepEqual(saved, [before], "the short records' position, committed before the long record was read");
    assert.deepEqual(sourceRefs(project), ['claude:p-1', 'claude:p-2']);
    project.close();
  });
});
