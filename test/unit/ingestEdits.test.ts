import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ChangeRecorder } from '../../server/src/capture/recordChange';
import { openProject } from '../../server/src/project';
import { ingestTranscript } from '../../server/src/transcripts/ingestTranscript';
import { tempDir } from '../support/tempDirs';

const ORIGINAL = 'def total(order):\n    return sum(order)\n\ndef tax(x):\n    return x * 0.2\n';

function toolResultLine(root: string, uuid: string, toolUseId: string, toolUseResult: unknown): string {
  return JSON.stringify({
    type: 'user', uuid, parentUuid: null, sessionId: 's-multi', timestamp: '2026-11-01T10:00:00Z', cwd: root, isSidechain: false,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: 'ok' }] },
    toolUseResult,
  });
}

describe('edits from other file tools', () => {
  it('records a MultiEdit (or any tool that reports the original and a structured patch) by applying its patch', async () => {
    const root = path.join(tempDir(), 'p');
    const project = openProject(root, { ...process.env, ENGRAM_HOME: tempDir() });
    const file = path.join(tempDir(), 's-multi.jsonl');
    const multiEdit = {
      filePath: path.join(root, 'orders.py'),
      edits: [{ old_string: 'sum(order)', new_string: 'round(sum(order), 2)', replace_all: false }, { old_string: '0.2', new_string: '0.25', replace_all: false }],
      originalFile: ORIGINAL,
      structuredPatch: [
        { oldStart: 1, oldLines: 5, newStart: 1, newLines: 5, lines: [' def total(order):', '-    return sum(order)', '+    return round(sum(order), 2)', ' ', ' def tax(x):', '-    return x * 0.2', '+    return x * 0.25'] },
      ],
      userModified: false,
    };
    const notApplying = { ...multiEdit, structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-something else', '+x'] }] };
    writeFileSync(file, `${toolResultLine(root, 'u-1', 'tu-1', multiEdit)}\n${toolResultLine(root, 'u-2', 'tu-2', notApplying)}\n`);
    const result = await ingestTranscript(project, new ChangeRecorder(project), { path: file, sessionId: 's-multi', kind: 'session' });
    assert.equal(result.memories, 1, 'the patch that does not apply to its original is skipped');
    const [memory] = [...project.store.all()];
    assert.equal(memory!.title, 'Edited total, tax (+2 \u22122) in orders.py');
    assert.equal(memory!.sourceRef, 'claude:tool:tu-1');
    project.close();
  });
});
