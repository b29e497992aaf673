// Paths that lead out of the project, through `..`, an absolute start or a symbolic link, are
// refused wherever Engram takes one: `engram remember --lines`, MCP `remember`, `engram import`.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { assertBuilt, runEngram } from '../support/engramProcess';
import { resultText, startMcp } from '../support/mcpClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const SECRET = 'root:$6$not-for-engram:19000:0:99999:7:::';

/** A project with a file, a link to a file outside it and a link to a folder outside it. */
function projectWithLinksOut(): { root: string; outside: string } {
  const root = tempDir('engram-project-');
  const outside = tempDir('engram-outside-');
  mkdirSync(path.join(root, '.git'));
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src', 'db.ts'), 'export function query() {\n  return 1;\n}\n');
  writeFileSync(path.join(outside, 'shadow'), `${SECRET}\n`);
  symlinkSync(path.join(outside, 'shadow'), path.join(root, 'src', 'notes.ts'));
  symlinkSync(outside, path.join(root, 'vendor'));
  return { root, outside };
}

function record(id: string, fields: Record<string, unknown>): string {
  return JSON.stringify({
    id, kind: 'constraint', title: 'A rule', body: 'A rule', why: null, source: 'user', sessionId: null, sourceRef: null,
    createdAt: '2025-05-01T10:00:00.000Z', updatedAt: '2025-05-01T10:00:00.000Z', importance: 0.5, pin: 'none', status: 'active',
    files: [], symbols: [], anchor: null, meta: {}, ...fields,
  });
}

const anchorAt = (file: string) => ({ path: file, range: { startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 5 }, contentHash: 'h', contextBefore: '', contextAfter: '', stale: false });

describe('paths are checked after links are followed', { skip: process.platform === 'win32' && 'symbolic links need privileges on Windows' }, () => {
  before(assertBuilt);

  it('`engram remember --lines` refuses a link out of the project and stores nothing of its target', async () => {
    const { root, outside } = projectWithLinksOut();
    const env = isolatedEnv();
    for (const file of ['src/notes.ts', 'vendor/shadow']) {
      const refused = await runEngram(['remember', '--kind', 'constraint', '--file', file, '--lines', '1', 'pinned'], { env, cwd: root });
      assert.equal(refused.code, 1);
      assert.equal(refused.stderr, `engram remember: ${file} leads out of the project, to ${path.join(outside, 'shadow')} (a symbolic link): Engram reads and tags only files inside the project\n`);
    }
    const inside = await runEngram(['remember', '--kind', 'constraint', '--file', 'src/db.ts', '--lines', '1-3', 'pinned'], { env, cwd: root });
    assert.equal(inside.code, 0, inside.stderr);
    const exported = await runEngram(['export'], { env, cwd: root });
    assert.equal(exported.stdout.trim().split('\n').length, 1);
    assert.doesNotMatch(exported.stdout, /not-for-engram/);
  });

  it('MCP `remember` refuses pinned lines of a link out of the project', async () => {
    const { root } = projectWithLinksOut();
    const session = await startMcp({ env: isolatedEnv(), project: root });
    try {
      const refused = await session.call('remember', { text: 'pinned', kind: 'constraint', files: ['src/notes.ts'], lines: { start: 1, end: 1 } });
      assert.equal(refused.isError, true);
      assert.match(resultText(refused), /^src\/notes\.ts leads out of the project, to .*shadow \(a symbolic link\)/);
      const stats = await session.call('stats');
      assert.equal((stats.structuredContent as { total: number }).total, 0);
    } finally {
      await session.close();
    }
  });

  it('`engram import` rejects memories tied to places outside the project and imports the others', async () => {
    const { root } = projectWithLinksOut();
    const env = isolatedEnv();
    const file = path.join(tempDir(), 'export.jsonl');
    const ids = ['m_01JAAAAAAAAAAAAAAAAAAAAAA1', 'm_01JAAAAAAAAAAAAAAAAAAAAAA2', 'm_01JAAAAAAAAAAAAAAAAAAAAAA3', 'm_01JAAAAAAAAAAAAAAAAAAAAAA4', 'm_01JAAAAAAAAAAAAAAAAAAAAAA5', 'm_01JAAAAAAAAAAAAAAAAAAAAAA6'];
    writeFileSync(
      file,
      [
        record(ids[0]!, { files: ['src/db.ts'], anchor: anchorAt('src/db.ts') }),
        record(ids[1]!, { files: ['../../etc/shadow'] }),
        record(ids[2]!, { files: ['/etc/shadow'] }),
        record(ids[3]!, { anchor: anchorAt('src/notes.ts') }),
        record(ids[4]!, { files: ['vendor/shadow'] }),
        record(ids[5]!, { files: ['src/new-file.ts'] }),
        '',
      ].join('\n'),
    );
    const result = await runEngram(['import', file, '--json'], { env, cwd: root });
    assert.equal(result.code, 1);
    assert.deepEqual(JSON.parse(result.stdout), { added: 2, updated: 0, unchanged: 0, rejected: 4 });
    const reasons = result.stderr.trimEnd().split('\n');
    assert.equal(reasons.length, 4, result.stderr);
    assert.match(reasons[0]!, /export\.jsonl:2: skipped, files\.0: not a path inside the project/);
    assert.match(reasons[1]!, /export\.jsonl:3: skipped, files\.0: not a path inside the project/);
    assert.match(reasons[2]!, /export\.jsonl:4: skipped, anchor\.path: src\/notes\.ts leads out of the project, to .*shadow \(a symbolic link\)/);
    assert.match(reasons[3]!, /export\.jsonl:5: skipped, files: vendor\/shadow leads out of the project, to .*shadow/);
    const exported = (await runEngram(['export'], { env, cwd: root })).stdout.trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
    assert.deepEqual(exported, [ids[0], ids[5]]);
  });
});
