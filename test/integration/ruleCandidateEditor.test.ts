import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { openProject } from '../../server/src/project';
import { Commands } from '../../contracts/protocol';
import type { MemorySelection } from '../../contracts/viewProtocol';
import { startLsp, type LspSession } from '../support/lspClient';
import { isolatedEnv, tempDir } from '../support/tempDirs';

interface Lens { range: { start: { line: number } }; command: { title: string; command: string; arguments: unknown[] } }
type HoverResult = { contents: { value: string } } | null;

const SOURCE = ['export function findCustomer(id: string) {', '  return db.query(id);', '}', ''].join('\n');

/*
 * A rule Engram extracted from a prompt (a candidate: no agent is given it) and a rule a person
 * pinned, both about findCustomer: the editor tells them apart, and accepting the candidate the
 * way the hover's link does (engram/setPin) makes it a rule like the other.
 */
describe('rule candidates in the editor, through the memory server', () => {
  const env = isolatedEnv();
  const root = tempDir('engram-candidate-');
  const file = path.join(root, 'src', 'customers.ts');
  const uri = pathToFileURL(file).href;
  let lsp: LspSession;
  let candidateId: string;
  let ruleId: string;

  const hover = () => lsp.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } }) as Promise<HoverResult>;
  const lenses = () => lsp.connection.sendRequest('textDocument/codeLens', { textDocument: { uri } }) as Promise<Lens[]>;

  before(async () => {
    mkdirSync(path.join(root, '.git'));
    mkdirSync(path.dirname(file));
    writeFileSync(file, SOURCE);
    const project = openProject(root, env);
    try {
      const scope = { files: ['src/customers.ts'], symbols: ['findCustomer'] };
      candidateId = project.store.add({ kind: 'constraint', title: 'Never call findCustomer in a loop', source: 'claude', ...scope, meta: { candidate: true } }).id;
      ruleId = project.store.add({ kind: 'constraint', title: 'findCustomer takes a trimmed id', source: 'user', pin: 'hard', ...scope }).id;
    } finally {
      project.close();
    }
    lsp = startLsp(env);
    await lsp.connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'app' }], capabilities: {} });
    await lsp.connection.sendNotification('initialized', {});
    await lsp.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: SOURCE } });
  });
  after(async () => lsp?.close());

  it('the hover marks the candidate as not given to agents, with an Accept link; the pinned rule has none', async () => {
    const shown = (await hover())!.contents.value;
    const [rule, candidate] = shown.split('\n\n---\n\n');
    assert.match(rule!, /\*\*Engram · hard-pinned constraint\*\* — findCustomer takes a trimmed id/);
    assert.doesNotMatch(rule!, /acceptRule/);
    assert.match(candidate!, /\*\*Engram · rule candidate — not given to agents until you accept it\*\* — Never call findCustomer in a loop/);
    assert.match(candidate!, /· extracted /);
    const accept = candidate!.match(/\[Accept as a rule\]\(command:([^?]+)\?([^)]+)\)/);
    assert.ok(accept, candidate);
    assert.equal(accept[1], Commands.acceptRule);
    assert.deepEqual(JSON.parse(decodeURIComponent(accept[2]!)), [uri, candidateId]);
  });

  it('CodeLens shows the candidate as one to review, never as a rule', async () => {
    const all = await lenses();
    const top = all.find((l) => l.range.start.line === 0 && l.command.title.startsWith('Engram:'))!;
    assert.equal(top.command.title, 'Engram: 1 constraint · 1 rule candidate to review');
    const shown = async (lens: Lens) => ((await lsp.connection.sendRequest('engram/memorySelection', { uri, counted: lens.command.arguments[1] })) as MemorySelection).constraints.map((c) => c.memory.id);
    assert.ok((await shown(top)).includes(candidateId), 'the panel opened from it shows the candidate');
    const onSymbol = all.filter((l) => l !== top && l.range.start.line === 0);
    assert.deepEqual(onSymbol.map((l) => l.command.title), ['1 constraint']);
    assert.deepEqual(await shown(onSymbol[0]!), [ruleId]);
  });

  it('the panel gets the candidate marked as one', async () => {
    const selection = (await lsp.connection.sendRequest('engram/memorySelection', { uri, ids: [candidateId, ruleId] })) as MemorySelection;
    assert.deepEqual(selection.constraints.map((c) => [c.memory.id, c.memory.candidate]), [[candidateId, true], [ruleId, false]]);
  });

  it('accepted the way the hover link does it (engram/setPin), it is a rule like the other', async () => {
    const accepted = (await lsp.connection.sendRequest('engram/setPin', { uri, id: candidateId, pin: 'soft' })) as { pin: string };
    assert.equal(accepted.pin, 'soft');
    const shown = (await hover())!.contents.value;
    assert.doesNotMatch(shown, /rule candidate|acceptRule/);
    assert.match(shown, /soft-pinned constraint\*\* — Never call findCustomer in a loop/);
    const top = (await lenses()).find((l) => l.command.title.startsWith('Engram:'))!;
    assert.equal(top.command.title, 'Engram: 2 constraints');
    const selection = (await lsp.connection.sendRequest('engram/memorySelection', { uri, ids: [candidateId] })) as MemorySelection;
    assert.equal(selection.constraints[0]!.memory.candidate, false);
  });
});
