import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { newMemoryId } from '../../server/src/memory/ids';
import { memoryToRecord } from '../../server/src/memory/record';
import type { Memory } from '../../server/src/memory/types';
import { assertBuilt, runEngram } from '../support/engramProcess';
import { isolatedEnv, tempDir } from '../support/tempDirs';

const DAY = 86_400_000;

function project(): { root: string; env: NodeJS.ProcessEnv; engram: (...args: string[]) => ReturnType<typeof runEngram> } {
  const root = tempDir('engram-project-');
  mkdirSync(path.join(root, '.git'));
  const env = isolatedEnv();
  return { root, env, engram: (...args) => runEngram(args, { env, cwd: root }) };
}

async function remember(engram: ReturnType<typeof project>['engram'], ...args: string[]): Promise<string> {
  const result = await engram('remember', ...args);
  assert.equal(result.code, 0, result.stderr);
  return result.stdout.trim();
}

async function stats(engram: ReturnType<typeof project>['engram']): Promise<{ total: number; byStatus: Record<string, number> }> {
  return JSON.parse((await engram('stats', '--json')).stdout);
}

/** An export line of a diff memory made `daysAgo` days ago, to seed history the CLI cannot backdate. */
function oldDiff(file: string, symbol: string, daysAgo: number, why: string): string {
  const at = Date.now() - daysAgo * DAY;
  const memory: Memory = {
    id: newMemoryId(at),
    kind: 'diff',
    title: `Edited ${symbol} (+2 −1) in ${file}`,
    body: '@@ -1 +1,2 @@\n-a\n+b\n+c',
    why,
    source: 'claude',
    sessionId: null,
    sourceRef: null,
    createdAt: at,
    updatedAt: at,
    importance: 0.5,
    pin: 'none',
    status: 'active',
    files: [file],
    symbols: [symbol],
    anchor: null,
    meta: {},
  };
  return JSON.stringify(memoryToRecord(memory));
}

describe('engram forget, restore, archive, purge and compact', () => {
  before(assertBuilt);

  it('lists the lifecycle commands in --help', async () => {
    const { stdout } = await runEngram(['--help'], { env: isolatedEnv() });
    for (const command of ['forget', 'restore', 'archive', 'purge', 'compact']) assert.match(stdout, new RegExp(`^  ${command} `, 'm'));
  });

  it('forgets softly, says how to undo it, and restores', async () => {
    const { engram } = project();
    const id = await remember(engram, '--kind', 'note', 'The staging database is reset nightly');
    const forgot = await engram('forget', id);
    assert.equal(forgot.code, 0, forgot.stderr);
    assert.match(forgot.stdout, new RegExp(`^Forgot ${id}  note  The staging database is reset nightly$`, 'm'));
    assert.match(forgot.stdout, new RegExp(`^Undo: engram restore ${id}$`, 'm'));
    assert.deepEqual((await stats(engram)).byStatus, { active: 0, archived: 0, forgotten: 1 });

    const recalled = JSON.parse((await engram('recall', '--query', 'staging database', '--json')).stdout);
    assert.ok(!recalled.results.some((r: { id: string }) => r.id === id), 'a forgotten memory is not recalled');

    const restored = await engram('restore', id, '--json');
    assert.deepEqual(JSON.parse(restored.stdout), { status: 'active', changed: [{ id, kind: 'note', title: 'The staging database is reset nightly', from: 'forgotten' }], unchanged: [] });
    assert.match((await engram('restore', id)).stdout, new RegExp(`${id} is already active`));
  });

  it('answers an unknown id with exit 1 and changes nothing', async () => {
    const { engram } = project();
    const id = await remember(engram, '--kind', 'note', 'kept');
    for (const command of ['forget', 'restore', 'archive', 'purge']) {
      const result = await engram(command, id, 'm_00000000000000000000000000');
      assert.equal(result.code, 1, command);
      assert.match(result.stderr, /no memory with id m_00000000000000000000000000 in .*; nothing was changed/, command);
    }
    assert.deepEqual((await stats(engram)).byStatus, { active: 1, archived: 0, forgotten: 0 });
    const noIds = await engram('forget');
    assert.equal(noIds.code, 2);
  });

  it('archives on request but refuses a hard pin', async () => {
    const { engram } = project();
    const rule = await remember(engram, '--kind', 'constraint', '--pin', 'hard', 'Never log access tokens');
    const note = await remember(engram, '--kind', 'note', 'Old investigation notes');
    const refused = await engram('archive', rule);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /is hard-pinned, and hard pins are never archived \(unpin it first: engram unpin/);
    const archived = await engram('archive', note, '--json');
    assert.deepEqual(JSON.parse(archived.stdout).changed.map((c: { id: string; from: string }) => [c.id, c.from]), [[note, 'active']]);
    assert.deepEqual((await stats(engram)).byStatus, { active: 1, archived: 1, forgotten: 0 });
  });

  it('purges only what is forgotten or archived unless --force, and --forgotten purges every forgotten memory', async () => {
    const { engram } = project();
    const active = await remember(engram, '--kind', 'note', 'still in use');
    const a = await remember(engram, '--kind', 'note', 'mistake one');
    const b = await remember(engram, '--kind', 'note', 'mistake two with a unique word: quetzal');

    const refused = await engram('purge', active);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /is active; purge deletes only forgotten or archived memories \(forget first, or pass --force\)/);
    const bare = await engram('purge');
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /pass --forgotten/);

    await engram('forget', a, b);
    const purged = await engram('purge', '--forgotten');
    assert.equal(purged.code, 0, purged.stderr);
    assert.match(purged.stdout, /^2 memories deleted for good\.$/m);
    assert.equal((await stats(engram)).total, 1);
    const search = JSON.parse((await engram('recall', '--query', 'quetzal', '--json')).stdout);
    assert.deepEqual(search.results, []);
    assert.match((await engram('purge', '--forgotten')).stdout, /No forgotten memories to purge/);

    const forced = await engram('purge', active, '--force', '--json');
    assert.deepEqual(JSON.parse(forced.stdout), { purged: [{ id: active, kind: 'note', title: 'still in use', status: 'active' }] });
    assert.equal((await stats(engram)).total, 0);
  });

  it('compacts: consolidates old diffs, then archives down to the low mark, keeping hard pins; a dry run changes nothing', async () => {
    const { root, env, engram } = project();
    const seed = path.join(tempDir(), 'history.jsonl');
    writeFileSync(seed, [45, 44, 43, 42, 41].map((d, i) => oldDiff('src/parser.ts', 'Parser.parseExpr', d, `step ${i + 1} of the precedence fix`)).join('\n'));
    assert.equal((await runEngram(['import', seed], { env, cwd: root })).code, 0);
    const pins: string[] = [];
    for (let i = 0; i < 3; i++) pins.push(await remember(engram, '--kind', 'constraint', '--pin', 'hard', `Hard rule ${i}`));
    for (let i = 0; i < 4; i++) await remember(engram, '--kind', 'note', `Note ${i}`);

    const dry = await engram('compact', '--high', '5', '--low', '3', '--dry-run');
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^Would consolidate 5 old diff memories into 1 summary:$/m);
    assert.match(dry.stdout, /5 changes to Parser\.parseExpr in src\/parser\.ts between \d{4}-\d\d-\d\d and \d{4}-\d\d-\d\d/);
    assert.match(dry.stdout, /^8 active memories, above the high mark of 5: would archive the 5 of lowest value, leaving 3 \(low mark 3\)\.$/m);
    assert.match(dry.stdout, /^Dry run: nothing was changed\.$/m);
    assert.deepEqual((await stats(engram)).byStatus, { active: 12, archived: 0, forgotten: 0 });

    const real = JSON.parse((await engram('compact', '--high', '5', '--low', '3', '--json')).stdout);
    assert.equal(real.dryRun, false);
    assert.equal(real.consolidation.summaries.length, 1);
    assert.equal(real.consolidation.summaries[0].sources.length, 5);
    assert.equal(real.watermarks.archived, 5);
    assert.equal(real.watermarks.activeAfter, 3);
    for (const pin of pins) assert.ok(!real.watermarks.archivedIds.includes(pin));
    assert.deepEqual((await stats(engram)).byStatus, { active: 3, archived: 10, forgotten: 0 });

    const again = await engram('compact', '--high', '5', '--low', '3');
    assert.match(again.stdout, /^No old diffs to consolidate\.$/m);
    assert.match(again.stdout, /^3 active memories, within the high mark of 5: nothing to archive\.$/m);
  });

  it('explains how hard pins keep the count above the low mark, and rejects a low mark above the high one', async () => {
    const { engram } = project();
    for (let i = 0; i < 3; i++) await remember(engram, '--kind', 'constraint', '--pin', 'hard', `Hard rule ${i}`);
    await remember(engram, '--kind', 'note', 'plain');
    const result = await engram('compact', '--high', '2', '--low', '1');
    assert.match(result.stdout, /archived the 1 of lowest value, leaving 3/);
    assert.match(result.stdout, /2 above the low mark: the rest are hard-pinned, and hard pins are never archived\./);
    const bad = await engram('compact', '--high', '2', '--low', '3');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--low must not be above --high/);
  });
});
