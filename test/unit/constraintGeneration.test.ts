import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { memoryValue } from '../../server/src/capacity/value';
import { keptGoverningConstraints } from '../../server/src/constraints/governing';
import { openDatabase } from '../../server/src/store/database';
import { LifecycleStore } from '../../server/src/store/lifecycleStore';
import { MemoryStore } from '../../server/src/store/memoryStore';
import { tempDir } from '../support/tempDirs';

/** The memory server's store and another process's (a hook, the CLI) on one database. */
function stores() {
  const file = path.join(tempDir(), 'memory.db');
  const { db } = openDatabase(file);
  const otherDb = openDatabase(file).db;
  return { server: new MemoryStore(db, undefined, { resident: true }), other: new MemoryStore(otherDb), otherDb };
}

describe("the constraints' generation (what lists of constraints are kept for)", () => {
  it('moves when a constraint is written in any process, and not for other memories', () => {
    const { server, other, otherDb } = stores();
    const rule = server.add({ kind: 'constraint', title: 'Keep the pool at ten', source: 'user', files: ['src/db.ts'], pin: 'hard' });
    const note = server.add({ kind: 'note', title: 'A note on the pool', source: 'user', files: ['src/db.ts'] });
    let last = server.constraintGeneration();
    const moved = (what: string, write: () => void, expected: boolean) => {
      write();
      const now = server.constraintGeneration();
      assert.equal(now !== last, expected, what);
      assert.equal(server.constraintGeneration(), now, `${what}: the same until the next write`);
      last = now;
    };
    moved('another memory added', () => other.add({ kind: 'diff', title: 'Edited db.ts', source: 'editor', files: ['src/db.ts'] }), false);
    moved('another memory edited', () => other.update({ ...other.get(note.id)!, body: 'More about the pool' }), false);
    moved('a constraint added', () => other.add({ kind: 'constraint', title: 'No ORMs', source: 'user' }), true);
    moved('a constraint edited', () => other.update({ ...other.get(rule.id)!, title: 'Keep the pool at twelve' }), true);
    moved('a constraint unpinned', () => other.setPin(rule.id, 'none'), true);
    moved('a note made a constraint', () => other.update({ ...other.get(note.id)!, kind: 'constraint' }), true);
    moved('a constraint made a note again', () => other.update({ ...other.get(note.id)!, kind: 'note' }), true);
    moved('that note edited', () => other.update({ ...other.get(note.id)!, body: 'plain again' }), false);
    moved('a constraint archived', () => other.update({ ...other.get(rule.id)!, status: 'archived' }), true);
    moved('a constraint deleted', () => new LifecycleStore(otherDb, memoryValue).purge([rule.id]), true);
    moved('its own write of another memory', () => server.add({ kind: 'note', title: 'Own note', source: 'user' }), false);
  });

  it('keeps a file’s governing constraints across other writes, and reads them again after a constraint’s', () => {
    const { server, other } = stores();
    server.add({ kind: 'constraint', title: 'Keep the pool at ten', source: 'user', files: ['src/db.ts'], pin: 'hard' });
    const first = keptGoverningConstraints(server, 'src/db.ts');
    assert.deepEqual(first.map((c) => c.title), ['Keep the pool at ten']);
    other.add({ kind: 'diff', title: 'Edited db.ts', source: 'editor', files: ['src/db.ts'] });
    assert.equal(keptGoverningConstraints(server, 'src/db.ts'), first, 'the same list, not read again');
    other.add({ kind: 'constraint', title: 'Every query has a timeout', source: 'user' });
    assert.deepEqual(keptGoverningConstraints(server, 'src/db.ts').map((c) => c.title), ['Keep the pool at ten', 'Every query has a timeout']);
  });

  it("keeps recall's project-wide constraints across other writes, and finds them again after a constraint's", () => {
    const { server, other } = stores();
    const rowidOf = (id: string) => server.reads.rowidsRecent(100).find((r) => server.reads.byRowids([r])[0]!.id === id)!;
    const rule = other.add({ kind: 'constraint', title: 'No ORMs anywhere', source: 'user' });
    other.add({ kind: 'constraint', title: 'Keep the pool at ten', source: 'user', files: ['src/db.ts'] });
    const first = server.reads.rowidsUntaggedConstraints();
    assert.deepEqual(first, [rowidOf(rule.id)]);
    other.add({ kind: 'diff', title: 'Edited db.ts', source: 'editor', files: ['src/db.ts'] });
    assert.equal(server.reads.rowidsUntaggedConstraints(), first, 'kept across another memory written');
    const added = other.add({ kind: 'constraint', title: 'Log in UTC', source: 'user' });
    assert.deepEqual([...server.reads.rowidsUntaggedConstraints()].sort(), [rowidOf(rule.id), rowidOf(added.id)].sort());
    other.update({ ...other.get(rule.id)!, status: 'archived' });
    assert.deepEqual(server.reads.rowidsUntaggedConstraints(), [rowidOf(added.id)]);
  });

  it("lists recall's project-wide and glob-scoped constraints whole, hard pins first, then the oldest", () => {
    const { server, other } = stores();
    other.add({ kind: 'constraint', title: 'Old soft', source: 'user', pin: 'soft' }, 1_000);
    other.add({ kind: 'constraint', title: 'Tagged', source: 'user', files: ['src/db.ts'], pin: 'hard' }, 1_500);
    other.add({ kind: 'constraint', title: 'Plain', source: 'user' }, 2_000);
    other.add({ kind: 'constraint', title: 'Tests only', source: 'user', meta: { glob: 'test/**' } }, 2_500);
    other.add({ kind: 'constraint', title: 'Newer hard', source: 'user', pin: 'hard' }, 3_000);
    other.add({ kind: 'constraint', title: 'Older plain', source: 'user' }, 500);
    const archived = other.add({ kind: 'constraint', title: 'Archived', source: 'user' }, 4_000);
    other.update({ ...archived, status: 'archived' });
    other.add({ kind: 'note', title: 'A note', source: 'user' }, 5_000);
    const listed = server.untaggedConstraints();
    assert.deepEqual(listed.map((c) => c.title), ['Newer hard', 'Old soft', 'Older plain', 'Plain', 'Tests only']);
    assert.deepEqual(listed.find((c) => c.title === 'Tests only')!.meta, { glob: 'test/**' }, 'read whole');
    const recalls = server.reads.byRowids(server.reads.rowidsUntaggedConstraints()).map((m) => m.id);
    assert.deepEqual([...recalls].sort(), listed.map((c) => c.id).sort(), "the same set as recall's");
    other.update({ ...other.get(listed[0]!.id)!, status: 'archived' });
    assert.deepEqual(server.untaggedConstraints().map((c) => c.title), ['Old soft', 'Older plain', 'Plain', 'Tests only'], 'found again after a constraint changed');
  });

  it('in a short command, reads no constraint until it sees a change, which it then takes as one', () => {
    const { other: command, server } = stores();
    const first = command.constraintGeneration();
    server.add({ kind: 'note', title: 'A note', source: 'user' });
    const second = command.constraintGeneration();
    assert.notEqual(second, first, 'the constraints before it were not read: taken as changed');
    server.add({ kind: 'note', title: 'Another note', source: 'user' });
    assert.equal(command.constraintGeneration(), second, 'read since: a note is not a constraint');
    server.add({ kind: 'constraint', title: 'No ORMs', source: 'user' });
    assert.notEqual(command.constraintGeneration(), second);
  });

  it('moves after more changes than it looks through', () => {
    const { server, other } = stores();
    const before = server.constraintGeneration();
    for (let i = 0; i < 2001; i++) other.add({ kind: 'note', title: `Note ${i}`, source: 'user' });
    assert.notEqual(server.constraintGeneration(), before, 'too many to look through: taken as changed');
  });
});
