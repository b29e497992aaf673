import assert from 'node:assert/strict';
import * as vscode from 'vscode';

const CONSTRAINT = /All SQL goes through query\(\) with bound parameters/;

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n')
    .replace(/\\(.)/g, '$1'); // as rendered: Markdown escapes removed
}

// Runs inside the extension host against the real `vscode` API, on the seeded demo workspace.
describe('Engram in the extension host', () => {
  let dbUri: vscode.Uri;

  before(async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the demo workspace is open');
    dbUri = vscode.Uri.joinPath(folder.uri, 'src', 'db.ts');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(dbUri));
  });

  it('activates and registers its commands', async () => {
    const extension = vscode.extensions.all.find((e) => e.packageJSON.name === 'engram');
    assert.ok(extension, 'Engram is installed');
    await extension.activate();
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['engram.showStats', 'engram.restartServer', 'engram.showMemories']) assert.ok(commands.includes(id), id);
  });

  it('answers hover over the pinned code with the constraint, through the memory server', async () => {
    const text = await eventually('the constraint hover', async () => {
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', dbUri, new vscode.Position(7, 10));
      const joined = hoverText(hovers ?? []);
      return CONSTRAINT.test(joined) ? joined : undefined;
    });
    assert.match(text, /hard-pinned constraint/);
    const elsewhere = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', dbUri, new vscode.Position(21, 4));
    assert.doesNotMatch(hoverText(elsewhere ?? []), CONSTRAINT);
  });

  it('provides the CodeLenses at the top of the file and above the pinned code', async () => {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', dbUri);
    const titles = lenses.map((l) => [l.range.start.line, l.command?.title]);
    assert.deepEqual(titles.find(([, t]) => t === 'Engram: 1 constraint'), [0, 'Engram: 1 constraint']);
    assert.ok(titles.some(([line, t]) => line === 4 && /hard constraint: All SQL goes through query\(\)/.test(String(t))), JSON.stringify(titles));
  });

  it('opens the stats view from its command', async () => {
    await vscode.commands.executeCommand('engram.showStats');
    const tab = await eventually('the stats tab', async () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'Engram: Memory Stats'),
    );
    assert.ok(tab.input instanceof vscode.TabInputWebview);
  });
});
