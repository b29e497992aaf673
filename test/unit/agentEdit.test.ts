import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ChangeRecorder } from '../../server/src/capture/recordChange';
import { openProject } from '../../server/src/project';
import { tempDir } from '../support/tempDirs';

const BEFORE = 'def total(order):\n    return sum(order)\n';
const AFTER = 'def total(order):\n    return round(sum(order), 2)\n';
const ORIGIN = { why: 'Totals must be rounded to cents (asked: "fix rounding")', sessionId: 's-1', sourceRef: 'claude:u-1', at: 1_000_000 };

function fresh() {
  const project = openProject(path.join(tempDir(), 'p'), { ...process.env, ENGRAM_HOME: tempDir() });
  return { project, recorder: new ChangeRecorder(project) };
}

describe('an agent edit that is also seen on disk is recorded once', () => {
  it('when the disk change came first: the disk memory takes the agent\'s why and session', async () => {
    const { project, recorder } = fresh();
    recorder.baseline('orders.py', BEFORE, { size: 1, mtimeMs: 1 });
    const disk = await recorder.record('orders.py', AFTER, 'disk', { size: 2, mtimeMs: 2 }, { now: ORIGIN.at - 500 });
    assert.equal(disk.kind, 'recorded');
    const agent = await recorder.recordAgentEdit('orders.py', BEFORE, AFTER, ORIGIN);
    assert.equal(agent.kind, 'recorded');
    const all = [...project.store.all()];
    assert.equal(all.length, 1);
    assert.equal(all[0]!.source, 'claude');
    assert.equal(all[0]!.why, ORIGIN.why);
    assert.equal(all[0]!.sessionId, 's-1');
    assert.equal(all[0]!.meta.alsoSeenAs, 'disk');
    project.close();
  });

  it('when the agent edit came first: the later disk event finds nothing new', async () => {
    const { project, recorder } = fresh();
    recorder.baseline('orders.py', BEFORE, { size: 1, mtimeMs: 1 });
    await recorder.recordAgentEdit('orders.py', BEFORE, AFTER, ORIGIN);
    const disk = await recorder.record('orders.py', AFTER, 'disk', { size: 2, mtimeMs: 2 });
    assert.equal(disk.kind, 'unchanged');
    const all = [...project.store.all()];
    assert.equal(all.length, 1);
    assert.deepEqual(all[0]!.symbols, ['total']);
    project.close();
  });

  it('is idempotent by the transcript record it came from', async () => {
    const { project, recorder } = fresh();
    await recorder.recordAgentEdit('orders.py', BEFORE, AFTER, ORIGIN);
    assert.equal((await recorder.recordAgentEdit('orders.py', BEFORE, AFTER, ORIGIN)).kind, 'unchanged');
    assert.equal([...project.store.all()].length, 1);
    project.close();
  });

  it('links a later user edit of the same lines to the agent change it revises, and only that one', async () => {
    const { project, recorder } = fresh();
    const filler = Array.from({ length: 60 }, (_, i) => `def helper_${i}():\n    return ${i}\n`).join('');
    const before = BEFORE + filler;
    const agentAfter = AFTER + filler;
    const at = Date.now();
    const agent = await recorder.recordAgentEdit('orders.py', before, agentAfter, { ...ORIGIN, at });
    assert.equal(agent.kind, 'recorded');
    const agentId = agent.kind === 'recorded' ? agent.memory.id : null;

    const userAfter = agentAfter.replace('round(sum(order), 2)', 'round(sum(order), 2) or 0');
    const user = await recorder.record('orders.py', userAfter, 'editor', { size: 3, mtimeMs: 3 }, { now: at + 1000 });
    assert.equal(user.kind, 'recorded');
    const userId = user.kind === 'recorded' ? user.memory.id : null;
    assert.deepEqual(project.store.links(userId!).from, [{ id: agentId, relation: 'revises' }]);
    assert.deepEqual(project.store.links(agentId!).to, [{ id: userId, relation: 'revises' }]);

    const farAway = userAfter.replace('return 55', 'return 5500');
    const far = await recorder.record('orders.py', farAway, 'disk', { size: 4, mtimeMs: 4 }, { now: at + 2000 });
    assert.equal(far.kind, 'recorded');
    assert.deepEqual(project.store.links(far.kind === 'recorded' ? far.memory.id : ('' as never)).from, [], 'a change of other lines revises nothing');
    project.close();
  });
});
