import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { BackfillProgressParams } from '../../contracts/protocol';
import { encodeProjectFolder } from '../../server/src/transcripts/projectFolder';
import { runEngram } from '../support/engramProcess';
import { startLsp, type LspSession } from '../support/lspClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const SESSIONS = 8;
/** Each session is mostly bookkeeping lines, as real transcripts are: about 4 MB, one prompt. */
function sessionText(root: string, n: number): string {
  const common = { sessionId: `old-${n}`, parentUuid: null, cwd: root, isSidechain: false, timestamp: new Date(Date.UTC(2026, 9, n + 1)).toISOString() };
  const padding = JSON.stringify({ type: 'api-request-blob', blob: 'z'.repeat(512 * 1024) });
  const prompt = JSON.stringify({ ...common, type: 'user', uuid: `p-${n}`, message: { role: 'user', content: `Earlier session number ${n}` } });
  return `${prompt}\n${Array.from({ length: 8 }, () => padding).join('\n')}\n`;
}

describe('backfill of earlier Claude Code sessions', () => {
  const root = tempDir('engram-backfill-');
  const configDir = tempDir('engram-claude-');
  const env = isolatedEnv({ CLAUDE_CONFIG_DIR: configDir });
  let lsp: LspSession | undefined;
  after(async () => lsp?.close());

  it('reports progress, stops when cancelled keeping what it read, and resumes on request', async () => {
    mkdirSync(path.join(root, '.git'));
    const folder = path.join(configDir, 'projects', encodeProjectFolder(root));
    mkdirSync(folder, { recursive: true });
    for (let n = 0; n < SESSIONS; n++) writeFileSync(path.join(folder, `old-${n}.jsonl`), sessionText(root, n));

    lsp = startLsp(env);
    const progress = () => (lsp!.received.get('engram/backfillProgress') ?? []) as BackfillProgressParams[];
    const begun = lsp.waitFor('engram/backfillProgress', (p) => (p as BackfillProgressParams).state === 'begin', 30_000);
    await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'p' }], capabilities: {} });
    await lsp.connection.sendNotification('initialized', {});
    const begin = (await begun) as Extract<BackfillProgressParams, { state: 'begin' }>;
    assert.equal(begin.files, SESSIONS);
    assert.ok(begin.bytes > 30 * 1024 * 1024, `${begin.bytes} bytes`);

    const ended = lsp.waitFor('engram/backfillProgress', (p) => (p as BackfillProgressParams).state === 'end', 30_000);
    await lsp.connection.sendNotification('engram/cancelBackfill', { id: begin.id });
    const end = (await ended) as Extract<BackfillProgressParams, { state: 'end' }>;
    assert.equal(end.cancelled, true);
    const reports = progress().filter((p) => p.state === 'report');
    assert.ok(reports.length < SESSIONS, `cancelled after ${reports.length} of ${SESSIONS} files`);
    const intents = async () => JSON.parse((await runEngram(['stats', '--json'], { env, cwd: root })).stdout).byKind.intent as number;
    const keptAfterCancel = await intents();
    assert.equal(keptAfterCancel, reports.length, 'what was read before the cancel is kept');

    const resumedEnd = lsp.waitFor('engram/backfillProgress', (p) => (p as BackfillProgressParams).state === 'end' && (p as { id: string }).id !== begin.id, 30_000);
    await lsp.connection.sendNotification('engram/resumeBackfill', {});
    const second = (await resumedEnd) as Extract<BackfillProgressParams, { state: 'end' }>;
    assert.equal(second.cancelled, false);
    assert.equal(await intents(), SESSIONS);
    const last = progress().filter((p) => p.state === 'report').at(-1) as Extract<BackfillProgressParams, { state: 'report' }>;
    assert.equal(last.doneBytes, last.bytes);
  });
});
