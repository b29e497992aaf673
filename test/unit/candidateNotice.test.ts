import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ViewMemory } from '../../contracts/viewProtocol';
import { CANDIDATE_NOTICE, candidateBadge, candidateNotice } from '../../webview/src/shared/candidateNotice';
import { FakeNode, useFakeDocument } from '../support/fakeDom';
import { viewMemoryOf } from '../support/viewMemories';

const memory = (candidate: boolean): ViewMemory =>
  viewMemoryOf({ kind: 'constraint', title: 'Never call findCustomer in a loop', source: 'claude', files: ['src/customers.ts'], candidate });

describe('the memory panel and timeline mark rule candidates', () => {
  useFakeDocument();

  it('a candidate gets a badge and a note saying agents are not given it, with the card’s Accept action in it', () => {
    const accept = new FakeNode('vscode-button', 'Accept') as unknown as HTMLElement;
    const badge = candidateBadge(memory(true)) as unknown as FakeNode;
    assert.equal(badge.textContent, 'candidate');
    assert.equal(badge.getAttribute('class'), 'badge candidate');
    assert.equal(badge.getAttribute('title'), CANDIDATE_NOTICE);
    const notice = candidateNotice(memory(true), accept) as unknown as FakeNode;
    assert.equal(notice.getAttribute('role'), 'note');
    assert.match(notice.textContent, /^Rule candidate — not given to agents until you accept it\. Engram extracted it from an agent session\. Accepting pins it/);
    assert.equal(notice.childNodes.at(-1), accept as unknown as FakeNode, 'Accept sits in the note');
  });

  it('a rule a person made gets neither', () => {
    assert.equal(candidateBadge(memory(false)), null);
    assert.equal(candidateNotice(memory(false), new FakeNode('vscode-button') as unknown as HTMLElement), null);
  });
});
