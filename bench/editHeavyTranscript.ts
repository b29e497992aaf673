import { readFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom, pick, type Random } from './projectFixtures';

const SAMPLES = path.resolve(import.meta.dirname, '..', '..', 'shared', 'data', 'claude-code');
const RECORDED_CWD = '/home/dev/project';
const FILES = 40;
const FILE_LINES = 30;
const WORDS = ['session', 'token', 'retry', 'invoice', 'cursor', 'ledger', 'queue', 'limit', 'cache', 'parser', 'buffer', 'socket', 'schema', 'export'];

function codeLine(random: Random, n: number): string {
  return `  const ${pick(random, WORDS)}${n} = await ${pick(random, WORDS)}.${pick(random, ['load', 'save', 'check', 'parse'])}(${pick(random, WORDS)}Id, { attempt: ${Math.floor(random() * 90)} });`;
}

/**
 * An agent session that mostly edits code, built from the sample session's own records (a
 * prompt, an Edit call, its result with the file before it): `records` records, a prompt and an
 * edit in half the rounds and an edit alone in the other half (~0.6 memories a record), over
 * 40 files of 30 lines, each edit changing one line. Every result carries the whole file before
 * the edit, as Claude Code writes it, so most of the bytes are code.
 */
export function editHeavyTranscript(root: string, records: number, sessionId: string): string {
  const lines = readFileSync(path.join(SAMPLES, 'write-edit-session.jsonl'), 'utf8').split(RECORDED_CWD).join(root).split('\n').filter(Boolean);
  type Line = Record<string, unknown>;
  type Sample = { type?: string; message?: { content?: string | { name?: string }[] }; toolUseResult?: { oldString?: string } };
  const samples = lines.map((l) => JSON.parse(l) as Line & Sample);
  const promptTemplate = samples.find((r) => r.type === 'user' && typeof r.message?.content === 'string')!;
  const editTemplate = samples.find((r) => r.type === 'assistant' && Array.isArray(r.message?.content) && r.message.content[0]?.name === 'Edit')!;
  const resultTemplate = samples.find((r) => r.type === 'user' && r.toolUseResult?.oldString !== undefined)!;
  const random = seededRandom(4242);
  const files = Array.from({ length: FILES }, (_, f) => ({
    path: path.join(root, 'src', `module${f}.ts`),
    lines: Array.from({ length: FILE_LINES }, (_, n) => codeLine(random, n)),
  }));
  const out: string[] = [];
  let parent: string | null = null;
  let time = Date.parse('2026-11-20T09:00:00Z');
  const base = (template: Line, uuid: string): Line => {
    time += 1500;
    const record: Line = { ...template, uuid, parentUuid: parent, sessionId, timestamp: new Date(time).toISOString() };
    parent = uuid;
    return record;
  };
  for (let round = 0; out.length < records; round++) {
    if (round % 2 === 0) {
      const prompt = base(promptTemplate, `prompt-${round}`);
      prompt.message = { role: 'user', content: `Round ${round}: make ${pick(random, WORDS)} handling ${pick(random, ['retry', 'fail fast', 'log', 'batch'])} in module${round % FILES}` };
      out.push(JSON.stringify(prompt));
    }
    const file = files[Math.floor(random() * FILES)]!;
    const at = Math.floor(random() * FILE_LINES);
    const before = `${file.lines.join('\n')}\n`;
    const oldString = file.lines[at]!;
    const newString = codeLine(random, round);
    file.lines[at] = newString;
    const toolId = `toolu_edit_${round}`;
    const call = base(editTemplate, `edit-${round}`);
    call.message = { ...editTemplate.message, id: `msg_${round}`, content: [{ type: 'tool_use', id: toolId, name: 'Edit', input: { replace_all: false, file_path: file.path, old_string: oldString, new_string: newString } }] };
    out.push(JSON.stringify(call));
    const result = base(resultTemplate, `result-${round}`);
    const from = Math.max(0, at - 3);
    const to = Math.min(FILE_LINES, at + 4);
    const hunk = [...file.lines.slice(from, at).map((l) => ` ${l}`), `-${oldString}`, `+${newString}`, ...file.lines.slice(at + 1, to).map((l) => ` ${l}`)];
    result.message = { role: 'user', content: [{ tool_use_id: toolId, type: 'tool_result', content: `The file ${file.path} has been updated successfully.` }] };
    result.toolUseResult = { filePath: file.path, oldString, newString, originalFile: before, structuredPatch: [{ oldStart: from + 1, oldLines: to - from, newStart: from + 1, newLines: to - from, lines: hunk }], userModified: false, replaceAll: false };
    result.sourceToolAssistantUUID = call.uuid;
    out.push(JSON.stringify(result));
  }
  return `${out.slice(0, records).join('\n')}\n`;
}
