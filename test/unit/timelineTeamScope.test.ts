// The timeline's team scope in the webview (docs/team.md, "Team search"): when the scope picker
// shows, and that a memory found only on the team hub is read-only but for Copy as context. The end-to-end path (the
// memory server searching a real hub) is test/integration/teamHub.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ViewMemory } from '../../contracts/viewProtocol';
import { cardActions, copyCall } from '../../webview/src/shared/cardActions';
import { hubBadge, hubOnlyNote } from '../../webview/src/shared/teamBadge';
import { noMatchText, resultsHeading, SCOPE_LABELS, showsScopePicker } from '../../webview/src/timeline/searchScope';
import { type FakeNode, useFakeDocument } from '../support/fakeDom';
import { viewMemoryOf } from '../support/viewMemories';

const decision = viewMemoryOf({
  kind: 'decision',
  title: 'Connection retries live in the pool, not in callers',
  why: 'Callers retried on top of the pool and tripled the load.',
  files: ['src/pool.ts'],
  symbols: ['Pool.acquire'],
});
const onHubOnly: ViewMemory = { ...decision, id: 't_0123456789ABCDEFGHJK', team: true, hub: { project: 'github.com/org/billing', author: 'dana', context: '- [decision] Connection retries live in the pool, not in callers (why: …)' } };

describe("the timeline's search scope", () => {
  it('offers no scope picker without a team hub, and all three scopes with one', () => {
    assert.equal(showsScopePicker(false, 'local'), false);
    assert.equal(showsScopePicker(true, 'local'), true);
    assert.deepEqual(Object.values(SCOPE_LABELS), ['This clone', 'Team hub: this project', 'Team hub: all projects']);
  });

  it('keeps the picker while a team scope is chosen and the hub went away, so the user can come back to this clone', () => {
    assert.equal(showsScopePicker(false, 'team'), true);
    assert.equal(showsScopePicker(false, 'team-all'), true);
  });

  it('says where it looked', () => {
    assert.equal(resultsHeading('local', 'pool'), 'Results for “pool”, best first');
    assert.equal(resultsHeading('team-all', 'pool'), 'Team hub results for “pool” in all projects, best first');
    assert.match(noMatchText('team', 'pool', false), /^Nothing on the team hub matches “pool” in this project\./);
    assert.match(noMatchText('local', 'pool', true), /^Nothing matches “pool” with these filters\./);
  });
});

describe('a memory found only on the team hub', () => {
  useFakeDocument();

  it('offers Copy as context only: pin, edit, share and forget work on this clone’s store, which does not hold it', () => {
    assert.deepEqual(cardActions(onHubOnly, true), ['copy']);
    assert.deepEqual(cardActions({ ...onHubOnly, kind: 'diff', files: ['src/pool.ts'] }, false), ['copy'], 'not Open diff');
  });

  it('copies the text its card carries, where a memory of this clone is asked for by id', () => {
    assert.deepEqual(copyCall(onHubOnly, '/p'), { method: 'copyText', params: { title: onHubOnly.title, text: onHubOnly.hub!.context } });
    assert.deepEqual(copyCall(decision, '/p'), { method: 'copy', params: { projectRoot: '/p', id: decision.id } });
  });

  it("this clone's own memory keeps every action (the detail pane adds Archive)", () => {
    assert.deepEqual(cardActions(decision, false), ['pin', 'pin-hard', 'edit', 'share', 'copy', 'forget']);
    assert.deepEqual(cardActions({ ...decision, team: true, pin: 'soft' }, true), ['unpin', 'edit', 'unshare', 'copy', 'archive', 'forget']);
    assert.deepEqual(cardActions({ ...decision, status: 'archived' }, true), ['copy', 'restore', 'forget']);
  });

  it('is marked "team hub" with its project and author, and its card says why it is read-only', () => {
    const badge = hubBadge(onHubOnly.hub!) as unknown as FakeNode;
    assert.equal(badge.textContent, 'team hub');
    assert.equal(badge.getAttribute('class'), 'badge hub');
    assert.equal(badge.getAttribute('title'), 'On the team hub only, not in this clone: github.com/org/billing, by dana');
    const note = hubOnlyNote(onHubOnly.hub!) as unknown as FakeNode;
    assert.equal(note.getAttribute('role'), 'note');
    assert.match(note.textContent, /^github\.com\/org\/billing · by dana — on the team hub, not in this clone’s memory: read-only here, but for Copy/);
  });
});
